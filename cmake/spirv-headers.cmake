# Which SPIRV-Headers the library's opcode facts come from.
#
# The reader learns which opcodes declare types and which have a result id / result type from
# SPIRV-Headers' spirv.h (SpvHasResultAndType).  Debian 12's spirv-headers (1.3.239, early 2023)
# does not know the opcodes of later extensions (OpTypeCooperativeMatrixKHR,
# OpTypeUntypedPointerKHR, cooperative vectors, ...).  By default the build uses the headers it
# is given and never reaches the network: -DSPVBC_SPIRV_HEADERS_DIR=<include dir> (a source tree
# or a pinned copy), else the installed ones.  Fetching newer ones is asked for explicitly:
# with -DSPVBC_FETCH_SPIRV_HEADERS=ON (default: SPVBC_FETCH, which the README's commands and CI
# turn on), when the
# headers found are older than SPVBC_SPIRV_HEADERS_WANT, configure fetches the newest Debian
# spirv-headers it can get (an architecture-independent package; unstable's, 1.4.363 in late
# 2026, else Debian 13's 1.4.309: SPVBC_SPIRV_HEADERS_SUITES) into the build tree with
# cmake/debian-tree.sh, and the library is compiled against those.  A fetch that fails leaves
# the installed headers in use and says so.  The version is read from the Debian package by
# cmake/spirv-headers-version.sh, the one detection meson.build uses too.
#
# Sets, for the caller:
#   SPVBC_SPIRV_HEADERS_DIR      the include directory used (holds spirv/unified1/spirv.h)
#   SPVBC_SPIRV_HEADERS_VERSION  "1.4.309" / "1.3.239" / "unknown": what `--version` prints
#   SPVBC_SPIRV_HEADERS_NOTE     why these headers ("installed", "fetched from trixie", the
#                                reason a fetch did not happen)
# Needs only a shell, apt-get and dpkg at configure time, and those only when asked to fetch:
# the library-only build still needs nothing but a C compiler and SPIRV-Headers.
include_guard(GLOBAL)

option(SPVBC_FETCH_SPIRV_HEADERS
  "Fetch Debian 13's spirv-headers into the build tree when the installed ones are older (network)"
  ${SPVBC_FETCH})
set(SPVBC_SPIRV_HEADERS_WANT "1.4.363" CACHE STRING
  "The oldest SPIRV-Headers whose opcode facts the library is built with, if it can fetch them")
set(SPVBC_SPIRV_HEADERS_TREE "${PROJECT_BINARY_DIR}/trixie-spirv-headers" CACHE PATH
  "Where cmake/debian-tree.sh unpacks Debian 13's spirv-headers")
set(SPVBC_SPIRV_HEADERS_SUITES "sid;trixie" CACHE STRING
  "The Debian suites whose spirv-headers a fetch tries, newest first (sid's go to <build>/sid-spirv-headers)")
set(SPVBC_SPIRV_HEADERS_DIR "" CACHE PATH
  "An include directory holding spirv/unified1/spirv.h to build with instead of the installed one")

# The SDK version (1.3.239) of the SPIRV-Headers that `what` (file: a spirv.h; packages:
# debian-tree.sh's list) names, by cmake/spirv-headers-version.sh; "unknown" when it cannot tell.
function(_spvbc_headers_version kind path out)
  set(ver "")
  find_program(SPVBC_SH sh)
  if(SPVBC_SH)
    execute_process(COMMAND ${SPVBC_SH} ${CMAKE_CURRENT_LIST_DIR}/spirv-headers-version.sh
      ${kind} ${path} OUTPUT_VARIABLE ver OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  if(ver STREQUAL "")
    set(ver "unknown")
  endif()
  set(${out} ${ver} PARENT_SCOPE)
endfunction()

if(SPVBC_SPIRV_HEADERS_DIR)
  if(NOT EXISTS ${SPVBC_SPIRV_HEADERS_DIR}/spirv/unified1/spirv.h)
    message(FATAL_ERROR "SPVBC_SPIRV_HEADERS_DIR=${SPVBC_SPIRV_HEADERS_DIR} holds no "
      "spirv/unified1/spirv.h")
  endif()
  set(SPVBC_SPIRV_HEADERS_SYSTEM_DIR ${SPVBC_SPIRV_HEADERS_DIR})
else()
  find_path(SPVBC_SPIRV_HEADERS_SYSTEM_DIR spirv/unified1/spirv.h REQUIRED)
endif()
_spvbc_headers_version(file ${SPVBC_SPIRV_HEADERS_SYSTEM_DIR}/spirv/unified1/spirv.h _installed)
set(SPVBC_SPIRV_HEADERS_NOTE "installed")
if(SPVBC_SPIRV_HEADERS_DIR)
  set(SPVBC_SPIRV_HEADERS_NOTE "SPVBC_SPIRV_HEADERS_DIR")
endif()
set(SPVBC_SPIRV_HEADERS_DIR ${SPVBC_SPIRV_HEADERS_SYSTEM_DIR})
set(SPVBC_SPIRV_HEADERS_VERSION ${_installed})

if(NOT _installed STREQUAL "unknown" AND NOT _installed VERSION_LESS SPVBC_SPIRV_HEADERS_WANT)
  # new enough
elseif(NOT SPVBC_FETCH_SPIRV_HEADERS OR SPVBC_SPIRV_HEADERS_NOTE STREQUAL "SPVBC_SPIRV_HEADERS_DIR")
  if(NOT SPVBC_FETCH_SPIRV_HEADERS)
    set(SPVBC_SPIRV_HEADERS_NOTE "${SPVBC_SPIRV_HEADERS_NOTE}; fetching is off: -DSPVBC_FETCH=ON fetches ${SPVBC_SPIRV_HEADERS_WANT}")
  endif()
else()
  # The newest first: Debian unstable's (sid), then Debian 13's (trixie); the first whose
  # fetch works and that is no older than the installed ones wins.
  find_program(SPVBC_SH sh REQUIRED)
  set(_whys "")
  foreach(_suite IN LISTS SPVBC_SPIRV_HEADERS_SUITES)
    if(_suite STREQUAL "trixie")
      set(_tree ${SPVBC_SPIRV_HEADERS_TREE})
      set(_what "Debian 13 spirv-headers")
    else()
      set(_tree ${PROJECT_BINARY_DIR}/${_suite}-spirv-headers)
      set(_what "Debian ${_suite} spirv-headers")
    endif()
    execute_process(
      COMMAND ${SPVBC_SH} ${PROJECT_SOURCE_DIR}/cmake/debian-tree.sh fetch ${_tree} ${_suite}
        spirv-headers
      OUTPUT_VARIABLE _fetch_out ERROR_VARIABLE _fetch_out RESULT_VARIABLE _fetch_rc)
    set(_fetched ${_tree}/root/usr/include)
    set(_got "unknown")
    if(_fetch_rc EQUAL 0 AND EXISTS ${_tree}/ready AND EXISTS ${_fetched}/spirv/unified1/spirv.h)
      _spvbc_headers_version(packages ${_tree}/packages _got)
    endif()
    if(NOT _got STREQUAL "unknown" AND (_installed STREQUAL "unknown" OR
       NOT _got VERSION_LESS _installed))
      set(SPVBC_SPIRV_HEADERS_DIR ${_fetched})
      set(SPVBC_SPIRV_HEADERS_VERSION ${_got})
      set(SPVBC_SPIRV_HEADERS_NOTE "${_what}, fetched into the build tree")
      break()
    endif()
    set(_why "the fetch failed")
    if(EXISTS ${_tree}/unavailable)
      file(READ ${_tree}/unavailable _why)
      string(STRIP "${_why}" _why)
    elseif(NOT _got STREQUAL "unknown")
      set(_why "${_got} is older than the installed ${_installed}")
    endif()
    list(APPEND _whys "${_suite}: ${_why}")
  endforeach()
  if(SPVBC_SPIRV_HEADERS_DIR STREQUAL SPVBC_SPIRV_HEADERS_SYSTEM_DIR)
    string(REPLACE ";" "; " _why "${_whys}")
    set(SPVBC_SPIRV_HEADERS_NOTE "installed; could not fetch newer ones: ${_why}")
  endif()
endif()

# SpvOpToString() tells the library exactly which opcodes the headers know (opcode.c).
file(STRINGS ${SPVBC_SPIRV_HEADERS_DIR}/spirv/unified1/spirv.h _op_to_string
  REGEX "SpvOpToString\\(SpvOp ")
set(SPVBC_SPIRV_HEADERS_HAVE_OP_TO_STRING OFF)
if(_op_to_string)
  set(SPVBC_SPIRV_HEADERS_HAVE_OP_TO_STRING ON)
endif()
# For the directories beside this one (source/ prints the version in --version).
set(SPVBC_SPIRV_HEADERS_VERSION ${SPVBC_SPIRV_HEADERS_VERSION} CACHE INTERNAL "")
set(SPVBC_SPIRV_HEADERS_NOTE ${SPVBC_SPIRV_HEADERS_NOTE} CACHE INTERNAL "")

# Below Debian 13's, the cooperative types and untyped pointers are unknown opcodes.
if(SPVBC_SPIRV_HEADERS_VERSION STREQUAL "unknown" OR
   SPVBC_SPIRV_HEADERS_VERSION VERSION_LESS "1.4.309")
  message(WARNING "spirv-bitcast: the library's opcode facts come from SPIRV-Headers "
    "${SPVBC_SPIRV_HEADERS_VERSION} (${SPVBC_SPIRV_HEADERS_NOTE}): opcodes of newer extensions "
    "(cooperative matrices, untyped pointers, ...) are treated as unknown, and bitcasts that "
    "depend on them get a note instead of a verdict.")
else()
  message(STATUS "spirv-bitcast: SPIRV-Headers ${SPVBC_SPIRV_HEADERS_VERSION} "
    "(${SPVBC_SPIRV_HEADERS_NOTE}): ${SPVBC_SPIRV_HEADERS_DIR}")
endif()
