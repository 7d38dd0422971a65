%% The ring in Erlang: N processes pass a token round M times.
%% Usage: erl -noshell +S 1 +P 2000000 -s ring main N M
%% Prints the same lines as the course's ring.
-module(ring).
-export([main/1]).

main([NArg, MArg]) ->
    N = list_to_integer(atom_to_list(NArg)),
    M = list_to_integer(atom_to_list(MArg)),
    MemoryBefore = resident_bytes(),
    Started = erlang:monotonic_time(nanosecond),
    Next = lists:foldl(fun(_, After) -> spawn(fun() -> forward(After, M) end) end,
                       self(), lists:seq(2, N)),
    Spawned = erlang:monotonic_time(nanosecond),
    MemoryAfter = resident_bytes(),
    Hops = lap(Next, M, 0),
    Finished = erlang:monotonic_time(nanosecond),
    io:format("hops ~b~nspawn_us_per_process ~.3f~nns_per_hop ~.1f~n"
              "rss_bytes_per_process ~b~n",
              [Hops, (Spawned - Started) / 1000 / N, (Finished - Spawned) / (N * M),
               round((MemoryAfter - MemoryBefore) / N)]),
    halt().

%% One process of the ring: passes the token on, once per lap.
forward(_, 0) -> ok;
forward(Next, Laps) ->
    receive Hops -> Next ! Hops + 1 end,
    forward(Next, Laps - 1).

%% The first process: sends the token round M times.
lap(_, 0, Hops) -> Hops;
lap(Next, Laps, Hops) ->
    Next ! Hops,
    receive Back -> lap(Next, Laps - 1, Back + 1) end.

resident_bytes() ->
    {ok, Text} = file:read_file("/proc/self/statm"),
    [_, Pages | _] = string:lexemes(binary_to_list(Text), " "),
    list_to_integer(Pages) * 4096.
