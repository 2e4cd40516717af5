// spirv_bitcast.h compiles on its own, twice, as strict C++11 and C++17, with C linkage and the
// documented signatures.
// SPDX-License-Identifier: Apache-2.0
#include "spirv_bitcast.h"
#include "spirv_bitcast.h"

#include <type_traits>

static_assert(std::is_same<decltype(&spvbc_module_parse),
                           spvbc_result (*)(spvbc_context, const uint32_t *, size_t,
                                            const spvbc_parse_options *, spvbc_module *)>::value,
              "spvbc_module_parse signature");
static_assert(std::is_same<decltype(&spvbc_module_lower),
                           spvbc_result (*)(spvbc_module, const spvbc_lower_options *,
                                            spvbc_lower_summary *)>::value,
              "spvbc_module_lower signature");
static_assert(std::is_same<decltype(&spvbc_version_string), const char *(*)()>::value,
              "spvbc_version_string signature");
static_assert(SPVBC_SUCCESS == 0, "success is zero");
static_assert(sizeof(spvbc_result) == sizeof(int), "enums are int-sized (MAX_ENUM)");
static_assert(std::is_standard_layout<spvbc_diagnostic>::value, "plain C structs");
static_assert(std::is_trivial<spvbc_plan>::value, "plain C structs");

int main()
{
    spvbc_context ctx = nullptr;
    spvbc_lower_options lo = {sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, SPVBC_LOWER_ALL,
                              SPVBC_GENERATION_NEWEST};
    const size_t nopos = SPVBC_NO_POSITION;
    (void)lo;
    return ctx == nullptr && nopos != 0 ? 0 : 1;
}
