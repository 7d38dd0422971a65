# Warning flags shared by every target of the course: the build is
# warning-free with -Wall -Wextra -Wpedantic (CI makes warnings errors).
add_library(rdv_warnings INTERFACE)
target_compile_options(rdv_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  $<$<BOOL:${RDV_WERROR}>:-Werror>)
