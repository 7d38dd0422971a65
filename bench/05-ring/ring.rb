# The ring with Ruby fibers: N fibers pass a token round M times, each
# transferring it straight to the next. Usage: ruby ring.rb N M
# Prints the same lines as the course's ring.

def resident_bytes
  File.read('/proc/self/statm').split[1].to_i * 4096
end

def now = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)

n, m = ARGV.map { Integer(_1) }
total = n * m
main = Fiber.current
ring = nil
memory_before = resident_bytes
started = now
ring = Array.new(n) do |i|
  Fiber.new do
    hops = main.transfer # started, then parked until the token comes
    loop do
      hops += 1
      hops = (hops == total ? main : ring[(i + 1) % n]).transfer(hops)
    end
  end.tap(&:transfer)
end
spawned = now
memory_after = resident_bytes
hops = ring[0].transfer(0)
finished = now
puts "hops #{hops}"
puts format('spawn_us_per_process %.3f', (spawned - started) / 1000.0 / n)
puts format('ns_per_hop %.1f', (finished - spawned).to_f / total)
puts format('rss_bytes_per_process %.0f', (memory_after - memory_before).to_f / n)
