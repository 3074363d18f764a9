# sandbox_add_test(NAME SOURCES a.cpp [b.cpp] LIBRARIES ... [LABELS ...] [TIMEOUT s] [GUI])
# One Qt Test executable per test file, registered with CTest under its name.
function(sandbox_add_test name)
    cmake_parse_arguments(T "GUI" "TIMEOUT" "SOURCES;LIBRARIES;LABELS;ENVIRONMENT" ${ARGN})
    add_executable(${name} ${T_SOURCES})
    target_link_libraries(${name} PRIVATE Qt6::Test ${T_LIBRARIES})
    sandbox_target_warnings(${name})
    add_test(NAME ${name} COMMAND ${name})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 300)
    endif()
    set(env "QT_QPA_PLATFORM=offscreen" ${T_ENVIRONMENT})
    set_tests_properties(${name} PROPERTIES
        TIMEOUT ${T_TIMEOUT}
        LABELS "${T_LABELS}"
        ENVIRONMENT "${env}")
endfunction()
