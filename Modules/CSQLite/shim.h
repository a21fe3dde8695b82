#ifndef RECEPTION_CSQLITE_SHIM_H
#define RECEPTION_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer; Swift cannot import that macro.
// Swift code rebuilds it with unsafeBitCast(-1, to: sqlite3_destructor_type.self); this helper is the C view
// of the same value so a test can check both agree.
static inline sqlite3_destructor_type reception_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
