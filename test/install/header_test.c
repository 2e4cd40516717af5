/* spirv_bitcast.h compiles on its own, twice, as strict C11 (see test/install/CMakeLists.txt
 * for the flags), and its declarations have the documented signatures.
 * SPDX-License-Identifier: Apache-2.0 */
#include "spirv_bitcast.h"
#include "spirv_bitcast.h"

static spvbc_result (*const create_fn)(const spvbc_allocator *, spvbc_context *) =
    spvbc_context_create;
static spvbc_result (*const parse_fn)(spvbc_context, const uint32_t *, size_t,
                                      const spvbc_parse_options *, spvbc_module *) =
    spvbc_module_parse;
static spvbc_result (*const lower_fn)(spvbc_module, const spvbc_lower_options *,
                                      spvbc_lower_summary *) = spvbc_module_lower;
static spvbc_result (*const words_fn)(spvbc_module, const uint32_t **, size_t *) =
    spvbc_module_get_words;
static unsigned (*const version_fn)(void) = spvbc_version_number;

_Static_assert(SPVBC_SUCCESS == 0, "success is zero");
_Static_assert(sizeof(spvbc_result) == sizeof(int), "enums are int-sized (MAX_ENUM)");
_Static_assert((SPVBC_LOWER_ALL & SPVBC_LOWER_4_TO_3) != 0, "LOWER_ALL covers 4->3");
_Static_assert(SPVBC_VERSION_NUMBER >= 0, "version number");

int main(void)
{
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    spvbc_lower_options lo = {sizeof(spvbc_lower_options), SPVBC_PAD_ZERO, SPVBC_LOWER_ALL,
                              SPVBC_GENERATION_NEWEST};
    spvbc_diagnostic d = {SPVBC_SEVERITY_ERROR, 0, 0, SPVBC_NO_POSITION, SPVBC_NO_POSITION,
                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    (void)po;
    (void)lo;
    (void)d;
    return create_fn && parse_fn && lower_fn && words_fn && version_fn ? 0 : 1;
}
