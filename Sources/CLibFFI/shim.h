/* Why this target exists: Swift sees libffi through this header alone
 * (its types, ffi_prep_cif and ffi_call). Nothing else belongs here. */
#include <ffi.h>
