# Finds every library the project needs and, when one is missing, says which package
# provides it instead of leaving a bare CMake error.
find_package(PkgConfig QUIET)

function(sandbox_missing what debian fedora macos)
    message(FATAL_ERROR
        "${what} was not found.\n"
        "  Debian/Ubuntu: sudo apt-get install ${debian}\n"
        "  Fedora:        sudo dnf install ${fedora}\n"
        "  macOS:         brew install ${macos}\n"
        "or simply run ./run.sh, which installs what is missing.")
endfunction()

set(SANDBOX_QT_COMPONENTS Core Network Concurrent)
if(SANDBOX_BUILD_GUI)
    list(APPEND SANDBOX_QT_COMPONENTS Gui Widgets LinguistTools)
endif()
if(SANDBOX_BUILD_TESTS)
    list(APPEND SANDBOX_QT_COMPONENTS Test)
endif()
find_package(Qt6 6.4 QUIET COMPONENTS ${SANDBOX_QT_COMPONENTS})
if(NOT Qt6_FOUND)
    sandbox_missing("Qt 6 (${SANDBOX_QT_COMPONENTS})"
        "qt6-base-dev qt6-tools-dev qt6-l10n-tools" "qt6-qtbase-devel qt6-qttools-devel" "qt@6")
endif()

find_package(Qt6Keychain QUIET)
if(NOT Qt6Keychain_FOUND)
    sandbox_missing("QtKeychain for Qt 6" "qtkeychain-qt6-dev" "qtkeychain-qt6-devel" "qtkeychain")
endif()

find_package(OpenSSL QUIET)
if(NOT OpenSSL_FOUND)
    sandbox_missing("OpenSSL" "libssl-dev" "openssl-devel" "openssl@3")
endif()

if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    if(PkgConfig_FOUND)
        pkg_check_modules(SECCOMP QUIET IMPORTED_TARGET libseccomp)
    endif()
    if(NOT SECCOMP_FOUND)
        sandbox_missing("libseccomp" "libseccomp-dev pkg-config" "libseccomp-devel pkgconf" "(Linux only)")
    endif()
endif()

find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
    # ccache caches nothing that uses a precompiled header (cmake/Precompiled.cmake) unless
    # told that __DATE__/__TIME__ and the header's macros are safe to ignore (its manual,
    # "Precompiled headers"): said here, so no personal ccache configuration is needed.
    find_program(SANDBOX_ENV_PROGRAM env)
    if(SANDBOX_ENV_PROGRAM)
        set(ccache_launcher ${SANDBOX_ENV_PROGRAM})
    else()
        set(ccache_launcher ${CMAKE_COMMAND} -E env)
    endif()
    list(APPEND ccache_launcher CCACHE_SLOPPINESS=pch_defines,time_macros ${CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${ccache_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${ccache_launcher})
endif()
