# SPDX-License-Identifier: Apache-2.0
# CMake toolchain file: Cortex-M55 (Helium, FP16) with the Arm GNU toolchain and picolibc, for Arm
# Corstone-300 (AN547; QEMU mps3-an547). cmake -DCMAKE_TOOLCHAIN_FILE=<this file> ...
# Executables use picolibc's crt0 and linker script, semihosting for printf and exit(), and the
# secure aliases of ITCM (code and constants) and DTCM (data), 512 KiB each; a bigger program
# overrides the layout with its own -T script.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)  # no bare-metal executable before the layout is known
# Options, not CMAKE_C_FLAGS_INIT: a -DCMAKE_C_FLAGS=... on the command line must not drop the CPU.
set(_helia_cpu -mcpu=cortex-m55 -mfloat-abi=hard -mthumb --specs=picolibc.specs)
add_compile_options(${_helia_cpu})
add_link_options(${_helia_cpu} --oslib=semihost
  -Wl,--defsym=__flash=0x10000000 -Wl,--defsym=__flash_size=0x80000
  -Wl,--defsym=__ram=0x30000000 -Wl,--defsym=__ram_size=0x80000)
