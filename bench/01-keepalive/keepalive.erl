%% keepalive: the Erlang peer of chapter 1's benchmark. It answers every
%% request with the same seven bytes and keeps the connection open, like the
%% server in Michael Neumann's weblog post (ntecs.de, early 2008), which
%% one_at_a_time.erl models, but with that server's bug fixed: the acceptor
%% hands each connection to a new process and goes straight back to accept.
%%
%% Run: erlc keepalive.erl && erl -noshell +S 1 -pa . -s keepalive start 8081
-module(keepalive).
-export([start/1]).

%% The same bytes as chapter 1's C++ server sends.
-define(ANSWER, <<"HTTP/1.1 200 OK\r\nConnection: Keep-Alive\r\n"
                  "Content-Length: 7\r\nContent-Type: text/plain\r\n\r\n1234567">>).

%% erl -s passes the arguments after the function as a list of atoms.
start([PortAtom]) ->
    Port = list_to_integer(atom_to_list(PortAtom)),
    {ok, Listener} = gen_tcp:listen(Port, [binary, {packet, http_bin}, {active, false},
                                           {reuseaddr, true}, {backlog, 1024}]),
    accept_loop(Listener).

%% [accept]
accept_loop(Listener) ->
    {ok, Socket} = gen_tcp:accept(Listener),
    Connection = spawn(fun() -> connection(Socket) end),
    ok = gen_tcp:controlling_process(Socket, Connection),
    Connection ! {socket_is_yours, Socket},
    accept_loop(Listener).
%% [accept]

%% The new process waits until the socket is its own before it reads.
connection(Socket) ->
    receive
        {socket_is_yours, Socket} -> serve(Socket)
    end.

serve(Socket) ->
    case end_of_head(Socket) of
        reached ->
            case gen_tcp:send(Socket, ?ANSWER) of
                ok -> serve(Socket);
                {error, _} -> gen_tcp:close(Socket)
            end;
        closed ->
            gen_tcp:close(Socket)
    end.

%% With {packet, http_bin} each recv returns one line of the head, decoded:
%% the request line, a field, a line that did not parse, or http_eoh for the
%% blank line that ends it. Only the end matters here.
end_of_head(Socket) ->
    case gen_tcp:recv(Socket, 0) of
        {ok, http_eoh} -> reached;
        {ok, _LineOfTheHead} -> end_of_head(Socket);
        {error, _} -> closed
    end.
