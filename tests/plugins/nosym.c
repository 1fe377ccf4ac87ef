/* A plugin with the version function and no family function at all. */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
