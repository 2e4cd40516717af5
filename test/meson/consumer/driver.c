/* A stand-in for a driver (Mesa's libvulkan_lvp.so) that links spirv-bitcast statically as a
 * Meson subproject: test/meson/run.sh checks that the shared object it makes exports none of
 * the library's spvbc_ symbols, only its own entry point. */
#include <spirv_bitcast.h>

unsigned consumer_driver_entry(void);

unsigned consumer_driver_entry(void)
{
    return spvbc_version_number();
}
