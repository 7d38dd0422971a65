%% one_at_a_time: chapter 1's model of the keep-alive server in Michael
%% Neumann's weblog post (ntecs.de, early 2008), written afresh for this
%% course. It has that server's shape and keeps its bug on purpose: the
%% argument of spawn is a call, which runs in the acceptor before spawn is
%% reached, so one client is served at a time. Do not benchmark it; the
%% benchmark's Erlang peer is keepalive.erl, with the bug fixed.
%%
%% Try it:  erlc -o /tmp one_at_a_time.erl && erl -noshell -pa /tmp -s one_at_a_time main 8081
-module(one_at_a_time).
-export([main/1]).

%% [listen]
main([PortAtom]) ->
    Port = list_to_integer(atom_to_list(PortAtom)),
    {ok, Listener} = gen_tcp:listen(Port, [binary, {packet, http}, {active, false},
                                           {reuseaddr, true}, {backlog, 30}]),
    acceptor(Listener).
%% [listen]

%% [acceptor]
acceptor(Listener) ->
    {ok, Client} = gen_tcp:accept(Listener),
    %% The bug: next_request(Client) is evaluated here, in the acceptor,
    %% and serves this client for as long as it stays; spawn is never reached.
    spawn(next_request(Client)),
    acceptor(Listener).
%% [acceptor]

%% [head]
%% A request line, then field lines until the blank line (http_eoh).
next_request(Client) ->
    {ok, {http_request, _Method, _Target, _Version}} = gen_tcp:recv(Client, 0),
    skip_fields(Client).

skip_fields(Client) ->
    case gen_tcp:recv(Client, 0) of
        {ok, http_eoh} -> answer(Client);
        {ok, {http_header, _Bit, _Name, _RawName, _Value}} -> skip_fields(Client);
        {ok, {http_error, _Line}} -> skip_fields(Client)
    end.
%% [head]

%% [answer]
%% Seven bytes, and back for the next request on the same connection. When
%% the client closes, recv's {error, closed} matches no pattern above, and
%% the crash takes the acceptor, and so the whole server, with it.
answer(Client) ->
    Reply = [<<"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n">>,
             <<"Content-Length: 7\r\nConnection: Keep-Alive\r\n\r\n">>,
             <<"1234567">>],
    ok = gen_tcp:send(Client, Reply),
    next_request(Client).
%% [answer]
