# `tagproof review --format html`: one self-contained page per finding with an
# SVG picture of the tags over time (inline SVG when Graphviz is installed,
# its DOT source otherwise) and a legend. With SCREENSHOT=1 the page is looked
# at in headless Chromium (tests/html_check.py): the picture laid out, drawn
# and not blank in a screenshot, its text inked, the legend visible; then the
# same check must fail on the page broken on purpose (picture removed, emptied,
# hidden, painted white, text transparent, legend removed or hidden, no fonts).
# Chromium, Python 3, Graphviz and fonts come from scripts/setup.sh; without
# them the screenshot test fails, saying so: it is never skipped.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${TAGPROOF} review --variant mutant-no-tcma --format html --no-solver --no-rapidcheck --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "review of mutant-no-tcma exited with ${rc} (wanted 1: an unrecorded counterexample):\n${out}${err}")
endif()
set(page ${OUT}/mutant-no-tcma.match-all-never-faults.hw_tags.html)
if(NOT EXISTS ${page})
  message(FATAL_ERROR "no report page ${page}:\n${out}")
endif()
file(READ ${page} html)
foreach(want "<!DOCTYPE html>" "Severity: high" "Tags over time" "<div class=\"legend\"" "What happened:" "</html>")
  if(NOT html MATCHES "${want}")
    message(FATAL_ERROR "the page lacks '${want}'")
  endif()
endforeach()
find_program(DOT_EXE dot)
if(DOT_EXE AND NOT html MATCHES "<svg")
  message(FATAL_ERROR "Graphviz is installed but the page has no inline SVG")
endif()
if(NOT DOT_EXE AND NOT html MATCHES "<pre class=\"dot\">")
  message(FATAL_ERROR "without Graphviz the page must carry the DOT source")
endif()
if(SCREENSHOT)
  find_program(CHROMIUM NAMES chromium chromium-browser google-chrome google-chrome-stable)
  if(NOT CHROMIUM)
    message(FATAL_ERROR "no Chromium to look at ${page} in: run scripts/setup.sh "
                        "(or apt-get install --no-install-recommends chromium fonts-dejavu-core)")
  endif()
  find_program(PYTHON3 NAMES python3)
  if(NOT PYTHON3)
    message(FATAL_ERROR "no python3 to run tests/html_check.py: run scripts/setup.sh (or apt-get install python3)")
  endif()
  if(NOT DOT_EXE)
    message(FATAL_ERROR "no Graphviz: the page carries the picture's DOT source, not the picture; "
                        "run scripts/setup.sh (or apt-get install graphviz)")
  endif()
  execute_process(COMMAND ${PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/html_check.py --chromium ${CHROMIUM} --page ${page}
                          --work ${OUT}/browser --controls
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 100)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the page, seen in headless Chromium, fails (exit ${rc}): see the FAIL lines above")
  endif()
endif()
