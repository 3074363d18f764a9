# Precompiled headers: the Qt and standard headers nearly every file of ours includes are
# parsed once per group of targets instead of once per file.
#
# sandbox_target_warnings() enrols every target of ours; at the end of the target's directory
# (when its libraries are all known) sandbox_precompile_directory() gives it the headers that
# match the Qt modules it compiles against:
#  - a target that does not compile against Qt Core (sandbox-init, the run front, fdio, the
#    VM guest helpers, the digest library) gets none: plain C++ stays plain C++;
#  - the others reuse the header of one host target per module set and compile options
#    (REUSE_FROM). GCC uses a precompiled header only when every macro defined for it is defined
#    alike for its user, and none its headers test is defined only for the user (-Winvalid-pch,
#    an error here, says when not); a host therefore carries only what every user has: the
#    module set, the options, sandbox_target_warnings' definitions.
#  - Qt Test tests whether QT_TESTCASE_BUILDDIR and the GUI and network modules are defined, and
#    Qt sets the first per directory: a target that links Qt Test shares its header with
#    the targets of its own directory that have its module set (or has its own when alone).
# SANDBOX_PCH=OFF builds without them, which shows a file that forgets an include.
option(SANDBOX_PCH "Precompile the Qt and standard headers the sources use most" ON)

set(SANDBOX_PCH_STD <algorithm> <functional> <memory> <optional> <string> <utility> <vector>)
set(SANDBOX_PCH_CORE
    <QByteArray> <QCoreApplication> <QDateTime> <QDeadlineTimer> <QDir> <QElapsedTimer> <QFile>
    <QFileInfo> <QHash> <QJsonArray> <QJsonDocument> <QJsonObject> <QJsonValue> <QList> <QMap>
    <QMutex> <QObject> <QPointer> <QProcess> <QRegularExpression> <QSet> <QStandardPaths>
    <QString> <QStringList> <QTemporaryDir> <QThread> <QTimer> <QUrl>)
set(SANDBOX_PCH_NETWORK <QHostAddress> <QLocalServer> <QLocalSocket> <QTcpServer> <QTcpSocket>)
set(SANDBOX_PCH_WIDGETS
    <QAction> <QApplication> <QComboBox> <QHBoxLayout> <QLabel> <QLineEdit> <QMessageBox>
    <QPushButton> <QVBoxLayout> <QWidget>)
set(SANDBOX_PCH_TEST <QSignalSpy> <QTest>)

# The Qt modules whose definitions and include directories `target` compiles with: those it
# links and those its libraries pass on (not what a static library links privately).
function(_sandbox_qt_modules target out)
    set(queue ${target})
    set(seen "")
    set(modules "")
    set(first TRUE)
    while(queue)
        list(POP_FRONT queue item)
        if(item IN_LIST seen OR NOT TARGET ${item})
            continue()
        endif()
        list(APPEND seen ${item})
        get_target_property(aliased ${item} ALIASED_TARGET)
        if(aliased)
            set(item ${aliased})
        endif()
        if(item MATCHES "^Qt6::(Core|Gui|Widgets|Network|Test)$")
            list(APPEND modules ${CMAKE_MATCH_1})
        endif()
        if(first)
            get_target_property(libraries ${item} LINK_LIBRARIES)
            set(first FALSE)
        else()
            get_target_property(libraries ${item} INTERFACE_LINK_LIBRARIES)
        endif()
        foreach(library IN LISTS libraries)
            # $<LINK_ONLY:...> and other expressions bring no compile flags we rely on.
            if(library AND NOT library MATCHES "^\\$<")
                list(APPEND queue ${library})
            endif()
        endforeach()
    endwhile()
    list(REMOVE_DUPLICATES modules)
    list(SORT modules)
    set(${out} "${modules}" PARENT_SCOPE)
endfunction()

function(_sandbox_pch_headers modules out)
    set(headers ${SANDBOX_PCH_STD} ${SANDBOX_PCH_CORE})
    if("Network" IN_LIST modules)
        list(APPEND headers ${SANDBOX_PCH_NETWORK})
    endif()
    if("Widgets" IN_LIST modules)
        list(APPEND headers ${SANDBOX_PCH_WIDGETS})
    endif()
    if("Test" IN_LIST modules)
        list(APPEND headers ${SANDBOX_PCH_TEST})
    endif()
    set(${out} "${headers}" PARENT_SCOPE)
endfunction()

# Called by sandbox_target_warnings().
function(sandbox_precompile target)
    if(NOT SANDBOX_PCH)
        return()
    endif()
    set_property(DIRECTORY APPEND PROPERTY SANDBOX_PCH_TARGETS ${target})
    get_property(scheduled DIRECTORY PROPERTY SANDBOX_PCH_SCHEDULED)
    if(NOT scheduled)
        set_property(DIRECTORY PROPERTY SANDBOX_PCH_SCHEDULED TRUE)
        cmake_language(DEFER CALL sandbox_precompile_directory)
    endif()
endfunction()

function(sandbox_precompile_directory)
    get_property(targets DIRECTORY PROPERTY SANDBOX_PCH_TARGETS)
    file(RELATIVE_PATH where ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
    set(keys "")
    foreach(target IN LISTS targets)
        _sandbox_qt_modules(${target} modules)
        if(NOT "Core" IN_LIST modules)
            continue()
        endif()
        get_target_property(options ${target} COMPILE_OPTIONS)
        string(SHA1 options_digest "${options}")
        string(SUBSTRING ${options_digest} 0 8 options_digest)
        list(JOIN modules "_" module_key)
        set(key "${module_key}_${options_digest}")
        if("Test" IN_LIST modules)
            string(MAKE_C_IDENTIFIER "${where}" where_id)
            set(key "${where_id}_${key}")
            list(APPEND keys ${key})
            set(members_${key} ${members_${key}} ${target})
            set(modules_${key} "${modules}")
            set(options_${key} "${options}")
        else()
            _sandbox_pch_host(sandbox_pch_${key} "${modules}" "${options}")
            target_precompile_headers(${target} REUSE_FROM sandbox_pch_${key})
        endif()
    endforeach()
    list(REMOVE_DUPLICATES keys)
    foreach(key IN LISTS keys)
        list(LENGTH members_${key} count)
        if(count EQUAL 1)
            _sandbox_pch_headers("${modules_${key}}" headers)
            target_precompile_headers(${members_${key}} PRIVATE ${headers})
        else()
            _sandbox_pch_host(sandbox_pch_${key} "${modules_${key}}" "${options_${key}}")
            foreach(target IN LISTS members_${key})
                target_precompile_headers(${target} REUSE_FROM sandbox_pch_${key})
            endforeach()
        endif()
    endforeach()
endfunction()

# An object library that only compiles the header for its users.
function(_sandbox_pch_host host modules options)
    if(TARGET ${host})
        return()
    endif()
    add_library(${host} OBJECT ${PROJECT_SOURCE_DIR}/cmake/PrecompiledHost.cpp)
    set(libraries "")
    foreach(module IN LISTS modules)
        list(APPEND libraries Qt6::${module})
    endforeach()
    target_link_libraries(${host} PRIVATE ${libraries})
    set_target_properties(${host} PROPERTIES AUTOMOC OFF COMPILE_OPTIONS "${options}")
    _sandbox_warning_definitions(${host})
    _sandbox_pch_headers("${modules}" headers)
    target_precompile_headers(${host} PRIVATE ${headers})
endfunction()
