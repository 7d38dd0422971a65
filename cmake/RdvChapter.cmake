# Helpers that turn a chapter's folders into targets, so that a chapter's own
# CMakeLists.txt is a few lines. Every chapter NN-slug gets:
#
#   rdv_chNN            its library, built from solutions/NN-slug
#   rdv_chNN_exercise   the same library built from the learner's exercises/NN-slug
#   <program>           each reference program, in <build>/bin
#   <program>_exercise  the same program on the learner's library, in <build>/bin/exercise
#   test_chNN           the chapter's tests against rdv_chNN
#   test_chNN_exercise  the same tests against rdv_chNN_exercise
#
# and, when it has a checked Going-further item (solutions/NN-slug/further/
# *.patch, tests FURTHER in tests/NN-slug):
#
#   rdv_chNN_further    the library from the solution with the patches applied
#   <program>_further   each program from it, in <build>/bin/further
#   test_chNN_further   the item's tests against rdv_chNN_further
#   test_chNN_further_exercise  the item's tests against the learner's library
#                       (not built by default: ./course check NN --further)
#
# The exercise copies link the *solutions* of earlier chapters (DEPENDS), so a
# learner on chapter 5 stands on working chapters 1-4.

# rdv_add_chapter(NN [SOURCES file.cpp...] [PROGRAMS name...] [DEPENDS target...])
#   SOURCES   library sources, relative to the chapter folder
#   PROGRAMS  programs, each built from <name>_main.cpp in the chapter folder
#             (with - in the name written _ in the file: static_server_main.cpp)
#   DEPENDS   libraries the chapter uses (earlier chapters' rdv_chMM, Boost::json, ...)
function(rdv_add_chapter number)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;PROGRAMS;DEPENDS")
  get_filename_component(slug "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  set(solution_dir "${CMAKE_CURRENT_SOURCE_DIR}")
  set(exercise_dir "${RDV_EXERCISE_ROOT}/${slug}")

  set_property(GLOBAL APPEND PROPERTY RDV_CHAPTERS ${number})
  set_property(GLOBAL PROPERTY RDV_CHAPTER_${number}_SLUG ${slug})
  set_property(GLOBAL PROPERTY RDV_CHAPTER_${number}_PROGRAMS ${arg_PROGRAMS})
  # A program named as an earlier chapter's (chapter 11's hub, after chapter
  # 10's) keeps its name, but its targets are chNN_<program> and its folder
  # is bin/chNN: `./course run NN PROGRAM` and the tests find it there.
  set(bin bin)
  set(prefix "")
  foreach(program IN LISTS arg_PROGRAMS)
    if(TARGET ${program})
      set(bin bin/ch${number})
      set(prefix ch${number}_)
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY RDV_CHAPTER_${number}_BIN ${bin})
  set_property(GLOBAL PROPERTY RDV_CHAPTER_${number}_PREFIX "${prefix}")

  _rdv_chapter_library(rdv_ch${number} "${solution_dir}" "${arg_SOURCES}" "${arg_DEPENDS}")
  foreach(program IN LISTS arg_PROGRAMS)
    _rdv_chapter_program(${prefix}${program} ${program} rdv_ch${number} "${solution_dir}" ${bin})
  endforeach()

  _rdv_chapter_further(${number} "${solution_dir}" "${arg_SOURCES}" "${arg_DEPENDS}" "${arg_PROGRAMS}")

  if(RDV_BUILD_EXERCISES AND EXISTS "${exercise_dir}")
    _rdv_chapter_library(rdv_ch${number}_exercise "${exercise_dir}" "${arg_SOURCES}" "${arg_DEPENDS}")
    foreach(program IN LISTS arg_PROGRAMS)
      _rdv_chapter_program(${prefix}${program}_exercise ${program} rdv_ch${number}_exercise
                           "${exercise_dir}" ${bin}/exercise)
    endforeach()
  endif()
endfunction()

# The chapter's checked Going-further item, if it has one: the solution with
# the patches of solutions/NN-slug/further/ applied (tools/further.py), built
# as rdv_chNN_further and <program>_further.
function(_rdv_chapter_further number solution_dir sources depends programs)
  file(GLOB patches CONFIGURE_DEPENDS "${solution_dir}/further/*.patch")
  if(NOT patches)
    return()
  endif()
  get_filename_component(slug "${solution_dir}" NAME)
  set(further_dir "${CMAKE_BINARY_DIR}/further/${slug}")
  file(GLOB originals LIST_DIRECTORIES false CONFIGURE_DEPENDS "${solution_dir}/*")
  list(FILTER originals EXCLUDE REGEX "/CMakeLists.txt$")
  set(copies "")
  foreach(original IN LISTS originals)
    get_filename_component(name "${original}" NAME)
    list(APPEND copies "${further_dir}/${name}")
  endforeach()
  add_custom_command(
    OUTPUT ${copies}
    COMMAND Python3::Interpreter "${PROJECT_SOURCE_DIR}/tools/further.py" apply
            "${solution_dir}" "${further_dir}" ${patches}
    DEPENDS ${originals} ${patches} "${PROJECT_SOURCE_DIR}/tools/further.py"
    COMMENT "Applying chapter ${number}'s going-further patch to a copy of its solution"
    VERBATIM)
  add_custom_target(rdv_ch${number}_further_sources DEPENDS ${copies})
  _rdv_chapter_library(rdv_ch${number}_further "${further_dir}" "${sources}" "${depends}")
  add_dependencies(rdv_ch${number}_further rdv_ch${number}_further_sources)
  get_property(bin GLOBAL PROPERTY RDV_CHAPTER_${number}_BIN)
  get_property(prefix GLOBAL PROPERTY RDV_CHAPTER_${number}_PREFIX)
  foreach(program IN LISTS programs)
    _rdv_chapter_program(${prefix}${program}_further ${program} rdv_ch${number}_further
                         "${further_dir}" ${bin}/further)
    add_dependencies(${prefix}${program}_further rdv_ch${number}_further_sources)
  endforeach()
endfunction()

# rdv_add_chapter_tests(NN SOURCES file.cpp... [DEPENDS target...] [LABELS label...]
#                       [SOAK file.cpp...] [FURTHER file.cpp...])
#   Builds the chapter's GoogleTest sources twice (solution and exercise) and
#   registers both with CTest, labelled chNN and solution/exercise. SOAK
#   sources make a third program, soak_chNN, against the solution only: a
#   long reliability run, labelled soak, that `./course test --soak` runs
#   (and `./course test` does not). FURTHER sources are the tests of the
#   chapter's checked Going-further item: test_chNN_further runs them against
#   the reference (rdv_chNN_further, labelled further), and
#   test_chNN_further_exercise, built only when asked for, against the
#   learner's code (./course check NN --further). WRAP names functions
#   (linker symbols) that the SOURCES stand in for, with __wrap_ and
#   __real_ names (the linker's --wrap): in the solution's and the
#   exercise's test programs, every call of each goes to the stand-in.
function(rdv_add_chapter_tests number)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;DEPENDS;LABELS;SOAK;FURTHER;WRAP")
  get_property(bin GLOBAL PROPERTY RDV_CHAPTER_${number}_BIN)
  set(bin "${CMAKE_BINARY_DIR}/${bin}")
  if(arg_FURTHER AND TARGET rdv_ch${number}_further)
    _rdv_test_program(test_ch${number}_further "${arg_FURTHER}" rdv_ch${number}_further
                      "${arg_DEPENDS}" "${bin}/further")
    add_test(NAME ch${number}.further COMMAND test_ch${number}_further)
    set_tests_properties(ch${number}.further PROPERTIES LABELS "ch${number};further;solution" TIMEOUT 600)
    set_property(GLOBAL PROPERTY RDV_CHAPTER_${number}_FURTHER test_ch${number}_further)
    if(TARGET rdv_ch${number}_exercise)
      _rdv_test_program(test_ch${number}_further_exercise "${arg_FURTHER}" rdv_ch${number}_exercise
                        "${arg_DEPENDS}" "${bin}/exercise")
      set_target_properties(test_ch${number}_further_exercise PROPERTIES EXCLUDE_FROM_ALL ON)
    endif()
  elseif(arg_FURTHER)
    message(FATAL_ERROR "tests/ of chapter ${number} name FURTHER tests, but "
                        "solutions/ has no further/*.patch for them")
  endif()
  if(arg_SOAK)
    _rdv_test_program(soak_ch${number} "${arg_SOAK}" rdv_ch${number} "${arg_DEPENDS}" "${bin}")
    add_test(NAME ch${number}.soak COMMAND soak_ch${number})
    set_tests_properties(ch${number}.soak PROPERTIES LABELS "ch${number};soak" TIMEOUT 1200)
    set_property(GLOBAL PROPERTY RDV_CHAPTER_${number}_SOAK soak_ch${number})
  endif()
  set(variants rdv_ch${number} solution)
  if(TARGET rdv_ch${number}_exercise)
    list(APPEND variants rdv_ch${number}_exercise exercise)
  endif()
  while(variants)
    list(POP_FRONT variants library kind)
    set(target test_ch${number})
    set(bin_dir "${bin}")
    if(kind STREQUAL "exercise")
      set(target test_ch${number}_exercise)
      set(bin_dir "${bin}/exercise")
    endif()
    _rdv_test_program(${target} "${arg_SOURCES}" ${library} "${arg_DEPENDS}" "${bin_dir}")
    foreach(symbol IN LISTS arg_WRAP)
      target_link_options(${target} PRIVATE "LINKER:--wrap=${symbol}")
    endforeach()
    add_test(NAME ch${number}.${kind} COMMAND ${target})
    set_tests_properties(ch${number}.${kind} PROPERTIES
      LABELS "ch${number};${kind};${arg_LABELS}" TIMEOUT 600)
  endwhile()
endfunction()

# A GoogleTest program of chapter `number` (from the target's name), whose
# black-box tests run the chapter's programs from `bin_dir`: the solution's,
# or the exercise's (bin/exercise, named <program>_exercise).
function(_rdv_test_program target sources library depends bin_dir)
  string(REGEX MATCH "[0-9][0-9]" number "${target}")
  add_executable(${target} ${sources})
  target_link_libraries(${target} PRIVATE ${library} ${depends}
                        rdv_test_main rdv_warnings)
  # The chapter's fixtures, for the tests under further/ as for the others.
  target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
  get_property(programs GLOBAL PROPERTY RDV_CHAPTER_${number}_PROGRAMS)
  get_property(prefix GLOBAL PROPERTY RDV_CHAPTER_${number}_PREFIX)
  list(TRANSFORM programs PREPEND "${prefix}")
  if(bin_dir MATCHES "/exercise$")
    list(TRANSFORM programs APPEND _exercise)
  elseif(bin_dir MATCHES "/further$")
    list(TRANSFORM programs APPEND _further)
  endif()
  target_compile_definitions(${target} PRIVATE RDV_BIN_DIR="${bin_dir}")
  if(programs)
    add_dependencies(${target} ${programs})
  endif()
endfunction()

function(_rdv_chapter_library target dir sources depends)
  list(TRANSFORM sources PREPEND "${dir}/")
  if(sources)
    add_library(${target} STATIC ${sources})
    target_include_directories(${target} PUBLIC "${dir}")
    target_link_libraries(${target} PUBLIC rdv_common ${depends} PRIVATE rdv_warnings)
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE "${dir}")
    target_link_libraries(${target} INTERFACE rdv_common ${depends})
  endif()
endfunction()

# Program `program` (its main in <program>_main.cpp, '-' as '_') as target
# `target`, written to <build>/`output`/`program`.
function(_rdv_chapter_program target program library dir output)
  string(REPLACE "-" "_" file "${program}")  # static-server: static_server_main.cpp
  add_executable(${target} "${dir}/${file}_main.cpp")
  target_link_libraries(${target} PRIVATE ${library} rdv_warnings)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${program}
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/${output}")
endfunction()

# rdv_write_manifest(): writes <build>/course-manifest.json, which tells
# ./course the chapters, programs, reliability runs (soak) and Going-further
# tests this build knows.
function(rdv_write_manifest)
  get_property(numbers GLOBAL PROPERTY RDV_CHAPTERS)
  set(entries "")
  foreach(number IN LISTS numbers)
    get_property(slug GLOBAL PROPERTY RDV_CHAPTER_${number}_SLUG)
    get_property(programs GLOBAL PROPERTY RDV_CHAPTER_${number}_PROGRAMS)
    get_property(soak GLOBAL PROPERTY RDV_CHAPTER_${number}_SOAK)
    get_property(further GLOBAL PROPERTY RDV_CHAPTER_${number}_FURTHER)
    get_property(bin GLOBAL PROPERTY RDV_CHAPTER_${number}_BIN)
    get_property(prefix GLOBAL PROPERTY RDV_CHAPTER_${number}_PREFIX)
    list(TRANSFORM programs REPLACE "(.+)" "\"\\1\"")
    list(JOIN programs ", " programs)
    list(APPEND entries "    \"${number}\": {\"slug\": \"${slug}\", \"programs\": [${programs}], \"bin\": \"${bin}\", \"target_prefix\": \"${prefix}\", \"soak\": \"${soak}\", \"further\": \"${further}\"}")
  endforeach()
  list(JOIN entries ",\n" entries)
  file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/course-manifest.json"
       CONTENT "{\n  \"chapters\": {\n${entries}\n  }\n}\n" @ONLY)
endfunction()

# rdv_add_chapter_folders(): add_subdirectory() for every NN-slug folder of
# the current source folder that has a CMakeLists.txt, in chapter order.
function(rdv_add_chapter_folders)
  file(GLOB chapters LIST_DIRECTORIES true CONFIGURE_DEPENDS RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}"
       "${CMAKE_CURRENT_SOURCE_DIR}/[0-9][0-9]-*")
  list(SORT chapters)
  foreach(chapter IN LISTS chapters)
    if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${chapter}/CMakeLists.txt")
      add_subdirectory(${chapter})
    endif()
  endforeach()
endfunction()
