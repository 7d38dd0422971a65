# Cross-compiling the course for 64-bit ARM (Apple Silicon's dev container,
# Raspberry Pi, Graviton) on an x86-64 Debian or Ubuntu, with the release's
# cross compiler and its arm64 libraries (CONTRIBUTING.md, "On arm64"):
#
#   cmake --preset release -B build/arm64 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#
# The tests then run under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Multiarch: arm64 libraries and their CMake files are in
# /usr/lib/aarch64-linux-gnu, next to the build machine's own.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
find_program(RDV_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(RDV_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${RDV_QEMU_AARCH64}")
endif()
