/* libcbor (Debian libcbor-dev), used only as the independent reference decoder in tests and fuzzing. */
#ifndef CLIBCBOR_SHIM_H
#define CLIBCBOR_SHIM_H
#include <cbor.h>
#endif
