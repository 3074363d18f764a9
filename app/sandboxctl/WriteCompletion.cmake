# Writes `sandboxctl completion SHELL` to OUTPUT: cmake -DPROGRAM=... -DSHELL=... -DOUTPUT=... -P this
execute_process(COMMAND ${PROGRAM} completion ${SHELL} OUTPUT_FILE ${OUTPUT} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    file(REMOVE ${OUTPUT})
    message(FATAL_ERROR "${PROGRAM} completion ${SHELL} failed: ${result}")
endif()
