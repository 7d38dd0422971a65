// names: the registered-name example of chapter 4 (after Michael Neumann's
// complaint about Erlang), where a name and a pid sit in the same variable
// and are sent to the same way. Try: ./course run 04
#include "address.hpp"

#include "rdv/cli.hpp"

#include <iostream>
#include <string>

namespace {

using namespace rdv::proc;

//! [message]
struct msg {
  std::string text;
};
//! [message]

// Prints every message it gets, until it gets "stop".
void printer() {
  for (;;) {
    const msg m = receive<msg>();
    if (m.text == "stop") return;
    std::cout << self() << " got {msg, \"" << m.text << "\"}" << std::endl;
  }
}

//! [example]
void pid_and_name() {
  const pid printer_pid = spawn(printer);  // Erlang: a pid from spawn
  send(printer_pid, msg{"by pid"});        // Pid ! Message
  register_name("test", printer_pid);      // register(Name, Pid)
  send("test", msg{"by name"});            // Name ! Message
  address p = "test";                      // a variable bound to the name
  send(p, msg{"through a variable"});      // refused in Neumann's Erlang
  p = printer_pid;                         // the same variable, now a pid
  send(p, msg{"through the same variable, as a pid"});
  send(p, msg{"stop"});
  monitor(printer_pid);
  receive<down>();
  std::cout << "after " << printer_pid << " ended, whereis(\"test\") finds "
            << (whereis("test") ? "it" : "nobody") << std::endl;
  try {
    send("test", msg{"too late"});
  } catch (const registry_error& e) {
    std::cout << "and sending to the name is an error: " << e.what() << std::endl;
  }
}
//! [example]

}  // namespace

int main(int argc, char* argv[]) {
  rdv::cli::flags flags("names", "Chapter 4's registered-name example: a name and a pid in one "
                                 "variable, sent to the same way (chapter 4).");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  rdv::proc::scheduler node;
  node.spawn(pid_and_name);
  node.run();
}
