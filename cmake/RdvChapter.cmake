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

  _rdv_chapter_library(rdv_ch${number} "${solution_dir}" "${arg_SOURCES}" "${arg_DEPENDS}")
  foreach(program IN LISTS arg_PROGRAMS)
    _rdv_chapter_program(${program} rdv_ch${number} "${solution_dir}" bin)
  endforeach()

  if(RDV_BUILD_EXERCISES AND EXISTS "${exercise_dir}")
    _rdv_chapter_library(rdv_ch${number}_exercise "${exercise_dir}" "${arg_SOURCES}" "${arg_DEPENDS}")
    foreach(program IN LISTS arg_PROGRAMS)
      _rdv_chapter_program(${program}_exercise rdv_ch${number}_exercise "${exercise_dir}" bin/exercise)
      set_target_properties(${program}_exercise PROPERTIES OUTPUT_NAME ${program})
    endforeach()
  endif()
endfunction()

# rdv_add_chapter_tests(NN SOURCES file.cpp... [DEPENDS target...] [LABELS label...]
#                       [SOAK file.cpp...])
#   Builds the chapter's GoogleTest sources twice (solution and exercise) and
#   registers both with CTest, labelled chNN and solution/exercise. SOAK
#   sources make a third program, soak_chNN, against the solution only: a
#   long reliability run, labelled soak, that `./course test --soak` runs
#   (and `./course test` does not).
function(rdv_add_chapter_tests number)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;DEPENDS;LABELS;SOAK")
  if(arg_SOAK)
    _rdv_test_program(soak_ch${number} "${arg_SOAK}" rdv_ch${number} "${arg_DEPENDS}" "${CMAKE_BINARY_DIR}/bin")
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
    set(bin_dir "${CMAKE_BINARY_DIR}/bin")
    if(kind STREQUAL "exercise")
      set(target test_ch${number}_exercise)
      set(bin_dir "${CMAKE_BINARY_DIR}/bin/exercise")
    endif()
    _rdv_test_program(${target} "${arg_SOURCES}" ${library} "${arg_DEPENDS}" "${bin_dir}")
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
  get_property(programs GLOBAL PROPERTY RDV_CHAPTER_${number}_PROGRAMS)
  if(bin_dir MATCHES "/exercise$")
    list(TRANSFORM programs APPEND _exercise)
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

function(_rdv_chapter_program target library dir output)
  get_filename_component(name "${target}" NAME)
  string(REGEX REPLACE "_exercise$" "" name "${name}")
  string(REPLACE "-" "_" file "${name}")  # static-server: static_server_main.cpp
  add_executable(${target} "${dir}/${file}_main.cpp")
  target_link_libraries(${target} PRIVATE ${library} rdv_warnings)
  set_target_properties(${target} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/${output}")
endfunction()

# rdv_write_manifest(): writes <build>/course-manifest.json, which tells
# ./course the chapters, programs and reliability runs (soak) this build knows.
function(rdv_write_manifest)
  get_property(numbers GLOBAL PROPERTY RDV_CHAPTERS)
  set(entries "")
  foreach(number IN LISTS numbers)
    get_property(slug GLOBAL PROPERTY RDV_CHAPTER_${number}_SLUG)
    get_property(programs GLOBAL PROPERTY RDV_CHAPTER_${number}_PROGRAMS)
    get_property(soak GLOBAL PROPERTY RDV_CHAPTER_${number}_SOAK)
    list(TRANSFORM programs REPLACE "(.+)" "\"\\1\"")
    list(JOIN programs ", " programs)
    list(APPEND entries "    \"${number}\": {\"slug\": \"${slug}\", \"programs\": [${programs}], \"soak\": \"${soak}\"}")
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
