# sandbox_add_windows_project(NAME SOURCE_DIR PROGRAM...): a plain C++ Win32 project (no Qt) built with
# the mingw-w64 cross compiler as part of this build, its programs in <build>/windows. Sets
# SANDBOX_MINGW_CXX (empty when no cross compiler is installed, or SANDBOX_CROSS_WINDOWS is
# off: then nothing is added, and the tests that need these programs skip, saying why).
option(SANDBOX_CROSS_WINDOWS "Cross-compile the Windows helpers with mingw-w64 where it is installed" ON)
if(SANDBOX_CROSS_WINDOWS)
    find_program(SANDBOX_MINGW_CXX NAMES x86_64-w64-mingw32-g++-posix x86_64-w64-mingw32-g++)
else()
    unset(SANDBOX_MINGW_CXX)
    unset(SANDBOX_MINGW_CXX CACHE)
endif()
set(SANDBOX_WINDOWS_BIN_DIR ${CMAKE_BINARY_DIR}/windows)
include(ExternalProject)

function(sandbox_add_windows_project name source_dir)
    if(NOT SANDBOX_MINGW_CXX)
        return()
    endif()
    set(byproducts)
    foreach(program ${ARGN})
        list(APPEND byproducts ${SANDBOX_WINDOWS_BIN_DIR}/${program}.exe)
    endforeach()
    set(launcher_args)
    if(CCACHE_PROGRAM)
        set(launcher_args -DCMAKE_CXX_COMPILER_LAUNCHER=${CCACHE_PROGRAM})
    endif()
    ExternalProject_Add(${name}
        SOURCE_DIR ${source_dir}
        BINARY_DIR ${CMAKE_BINARY_DIR}/windows-build/${name}
        CMAKE_ARGS
            -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/cmake/mingw-w64.cmake
            -DSANDBOX_MINGW_CXX=${SANDBOX_MINGW_CXX}
            -DCMAKE_BUILD_TYPE=Release
            -DCMAKE_RUNTIME_OUTPUT_DIRECTORY=${SANDBOX_WINDOWS_BIN_DIR}
            ${launcher_args}
        BUILD_ALWAYS ON
        INSTALL_COMMAND ""
        BUILD_BYPRODUCTS ${byproducts})
endfunction()
