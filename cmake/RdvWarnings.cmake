# Warning flags shared by every target of the course (see STYLE.md).
add_library(rdv_warnings INTERFACE)
target_compile_options(rdv_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  $<$<BOOL:${RDV_WERROR}>:-Werror>)
