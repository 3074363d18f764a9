# sandbox_add_test(NAME SOURCES a.cpp [b.cpp] LIBRARIES ... [LABELS ...] [TIMEOUT s] [GUI] [KEYRING])
# One Qt Test executable per test file, registered with CTest under its name.
# KEYRING runs it through tests/with-keyring.sh (a private D-Bus session with an unlocked
# gnome-keyring), for tests that use the real OS keychain.
function(sandbox_add_test name)
    cmake_parse_arguments(T "GUI;KEYRING" "TIMEOUT" "SOURCES;LIBRARIES;LABELS;ENVIRONMENT" ${ARGN})
    add_executable(${name} ${T_SOURCES})
    target_link_libraries(${name} PRIVATE Qt6::Test ${T_LIBRARIES})
    sandbox_target_warnings(${name})
    if(T_KEYRING)
        add_test(NAME ${name} COMMAND ${PROJECT_SOURCE_DIR}/tests/with-keyring.sh $<TARGET_FILE:${name}>)
    else()
        add_test(NAME ${name} COMMAND ${name})
    endif()
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 300)
    endif()
    # Qt Test's own watchdog (five minutes a function) must not end a test CTest gives longer.
    math(EXPR function_timeout_ms "${T_TIMEOUT} * 1000")
    set(env "QT_QPA_PLATFORM=offscreen" "QTEST_FUNCTION_TIMEOUT=${function_timeout_ms}" ${T_ENVIRONMENT})
    set_tests_properties(${name} PROPERTIES
        TIMEOUT ${T_TIMEOUT}
        LABELS "${T_LABELS}"
        ENVIRONMENT "${env}")
endfunction()
