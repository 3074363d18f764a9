# sandbox_target_warnings(TARGET): the warning set every target of ours builds with;
# warnings are errors when SANDBOX_WERROR is on (CI). It also enrols the target for the
# precompiled headers (cmake/Precompiled.cmake), which must see these very flags.
function(sandbox_target_warnings target)
    if(MSVC)
        target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${SANDBOX_WERROR}>:/WX>)
    else()
        target_compile_options(${target} PRIVATE
            -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
            -Woverloaded-virtual -Wformat=2 -Wimplicit-fallthrough
            $<$<BOOL:${SANDBOX_WERROR}>:-Werror>)
    endif()
    _sandbox_warning_definitions(${target})
    sandbox_precompile(${target})
endfunction()

function(_sandbox_warning_definitions target)
    target_compile_definitions(${target} PRIVATE
        QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING
        QT_NO_NARROWING_CONVERSIONS_IN_CONNECT QT_USE_QSTRINGBUILDER)
endfunction()
