# SPDX-License-Identifier: Apache-2.0
# CMake toolchain file: Cortex-M4F (DSP extension, single-precision FPU) with the Arm GNU toolchain and
# picolibc, for Arm MPS2 AN386 (QEMU mps2-an386). cmake -DCMAKE_TOOLCHAIN_FILE=<this file> ...
# Executables use picolibc's crt0 and linker script, semihosting for printf and exit(), and the board's
# SSRAM1 (code and constants) and SSRAM2/3 (data), 4 MiB each; a bigger program overrides the layout
# with its own -T script.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)  # no bare-metal executable before the layout is known
# Options, not CMAKE_C_FLAGS_INIT: a -DCMAKE_C_FLAGS=... on the command line must not drop the CPU.
set(_helia_cpu -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb --specs=picolibc.specs)
add_compile_options(${_helia_cpu})
add_link_options(${_helia_cpu} --oslib=semihost
  -Wl,--defsym=__flash=0x00000000 -Wl,--defsym=__flash_size=0x400000
  -Wl,--defsym=__ram=0x20000000 -Wl,--defsym=__ram_size=0x400000)
