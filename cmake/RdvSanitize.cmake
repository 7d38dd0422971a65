# Sanitizer builds. Processes and Asio's spawn switch stacks with Boost.Context;
# the sanitizers must be told about every switch, which Boost.Context does only
# in its ucontext implementation (BOOST_USE_ASAN / BOOST_USE_TSAN). Release
# builds keep the fast assembly (fcontext) implementation.
if(RDV_SANITIZE)
  list(JOIN RDV_SANITIZE "," rdv_sanitizers)
  add_compile_options(-fsanitize=${rdv_sanitizers} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  if("undefined" IN_LIST RDV_SANITIZE)
    # UBSan's vptr check tests whether memory is readable by writing it to a
    # pipe, so it reports a false "invalid vptr" in a process that has used up
    # its file descriptors, which chapter 7's EMFILE test does on purpose.
    add_compile_options(-fno-sanitize=vptr)
  endif()
  add_link_options(-fsanitize=${rdv_sanitizers})
  add_compile_definitions(BOOST_USE_UCONTEXT)
  if("address" IN_LIST RDV_SANITIZE)
    add_compile_definitions(BOOST_USE_ASAN)
    # No fake stacks for use-after-return. Newer runtimes (GCC 14's, LLVM
    # 15's) turn them on by default and give every fiber one of several
    # hundred KiB of committed address space that they never free: a
    # hundred thousand processes leave tens of GiB behind, and the next
    # fork(2) fails with ENOMEM.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      add_compile_options(--param=asan-use-after-return=0)
    else()
      add_compile_options(-fsanitize-address-use-after-return=never)
    endif()
  endif()
  if("thread" IN_LIST RDV_SANITIZE)
    add_compile_definitions(BOOST_USE_TSAN)
    # GCC warns that TSan does not model the fences in Asio's headers; the
    # fences sit next to the mutexes that TSan does see.
    add_compile_options(-Wno-tsan)
  endif()
endif()

# libstdc++'s own checks in every build but Release (tests, sanitizers,
# fuzzing, a learner's ./course check): an index past the end of a vector or
# a string, an empty optional dereferenced, front() of an empty container
# abort with the file and line instead of reading whatever lies there,
# which a test may not notice. They leave the ABI as it is, so the Boost
# libraries Debian built without them link as before.
add_compile_definitions($<$<NOT:$<CONFIG:Release>>:_GLIBCXX_ASSERTIONS>)
