%% The seed's 31-line keep-alive server, with its spawn bug fixed: the
%% original `spawn(?MODULE, request(Sock))` calls request(Sock) in the
%% acceptor itself, so clients are served one at a time. Here each
%% connection gets its own process, as the author meant.
%%
%% Run: erlc keepalive.erl && erl -noshell +S 1 -s keepalive start 8081
-module(keepalive).
-export([start/1]).

start([Port]) ->
  {ok, LSock} =
    gen_tcp:listen(list_to_integer(atom_to_list(Port)),
                   [binary, {packet, http_bin}, {reuseaddr, true},
                    {active, false}, {backlog, 1024}]),
  accept(LSock).

%% [accept]
accept(LSock) ->
  {ok, Sock} = gen_tcp:accept(LSock),
  Pid = spawn(fun() -> request(Sock) end),
  ok = gen_tcp:controlling_process(Sock, Pid),
  accept(LSock).
%% [accept]

request(Sock) ->
  case gen_tcp:recv(Sock, 0) of
    {ok, {http_request, _Method, _Path, _Version}} -> headers(Sock);
    _ -> gen_tcp:close(Sock)
  end.

headers(Sock) ->
  case gen_tcp:recv(Sock, 0) of
    {ok, {http_header, _, _, _, _}} -> headers(Sock);
    {ok, {http_error, _}} -> headers(Sock);
    {ok, http_eoh} -> body(Sock);
    _ -> gen_tcp:close(Sock)
  end.

body(Sock) ->
  gen_tcp:send(Sock, [<<"HTTP/1.1 200 OK\r\n">>,
                      ["Connection", ": ", "Keep-Alive", "\r\n",
                       "Content-Length: 7\r\n",
                       "Content-Type: text/plain\r\n"],
                      <<"\r\n">>, <<"1234567">>]),
  request(Sock).
