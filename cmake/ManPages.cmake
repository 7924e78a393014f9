# cmake -DHELP2MAN=... -DMMDKIT=<built mmdkit> -DOUT=<folder> -DVERSION=x.y.z -P ManPages.cmake
# Writes OUT/mmdkit.1.gz and one OUT/mmdkit-<command>.1.gz per command, from `mmdkit --help` and
# `mmdkit <command> --help` (the command list from `mmdkit help --commands`), then OUT/stamp.
file(MAKE_DIRECTORY "${OUT}")
file(GLOB _old "${OUT}/*.1" "${OUT}/*.1.gz")  # pages of commands that are gone
if(_old)
  file(REMOVE ${_old})
endif()
execute_process(COMMAND "${MMDKIT}" help --commands OUTPUT_VARIABLE _cmds RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${MMDKIT} help --commands failed (${rc})")
endif()
string(REPLACE ";" "<semicolon>" _cmds "${_cmds}")  # summaries may hold ';' (a CMake list separator)
string(REPLACE "\n" ";" _cmds "${_cmds}")
set(_common --no-info --no-discard-stderr "--version-string=${VERSION}" --version-option=--version
            --section=1 "--source=mmdkit ${VERSION}" "--manual=mmdkit manual")
execute_process(COMMAND "${HELP2MAN}" ${_common} "--name=MikuMikuDance files: read, write, check, convert, evaluate"
                        "--output=${OUT}/mmdkit.1" "${MMDKIT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man mmdkit failed (${rc})")
endif()
foreach(line IN LISTS _cmds)
  if(line STREQUAL "")
    continue()
  endif()
  # "NAME<TAB>summary"
  string(REGEX REPLACE "\t.*" "" cmd "${line}")
  string(REGEX REPLACE "^[^\t]*\t" "" summary "${line}")
  string(REPLACE "<semicolon>" ";" summary "${summary}")
  execute_process(COMMAND "${HELP2MAN}" ${_common} "--name=${summary}" "--help-option=${cmd} --help"
                          "--output=${OUT}/mmdkit-${cmd}.1" "${MMDKIT}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "help2man mmdkit ${cmd} failed (${rc})")
  endif()
  # help2man names the page after the binary: make it mmdkit-CMD(1) in the title and NAME.
  file(READ "${OUT}/mmdkit-${cmd}.1" page)
  string(TOUPPER "${cmd}" up)
  string(REPLACE ".TH MMDKIT " ".TH MMDKIT\\-${up} " page "${page}")
  string(REPLACE ".SH NAME\nmmdkit \\- " ".SH NAME\nmmdkit\\-${cmd} \\- " page "${page}")
  file(WRITE "${OUT}/mmdkit-${cmd}.1" "${page}")
endforeach()
# Compressed, as Debian installs man pages (gzip -n: no time stamp, the same bytes every build).
file(GLOB _pages "${OUT}/*.1")
execute_process(COMMAND gzip -9nf ${_pages} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip of the man pages failed (${rc})")
endif()
file(TOUCH "${OUT}/stamp")
