#include "CSQLitePlans.h"

// sqlite3_db_config takes a variable argument list, which Swift cannot call; hence this file. The server
// links the SQLite that SQLiteNIO bundles, whose functions carry the prefix `sqlite_nio_`. Its header is not
// visible to this package's C targets, so the one function and constant used are declared here.
extern int sqlite_nio_sqlite3_db_config(void *db, int op, ...);
#define COMPLETIONKIT_SQLITE_DBCONFIG_ENABLE_QPSG 1007

int completionkit_sqlite_keep_plans(void *db) {
  int enabled = -1;
  int status = sqlite_nio_sqlite3_db_config(db, COMPLETIONKIT_SQLITE_DBCONFIG_ENABLE_QPSG, 1, &enabled);
  if (status != 0) return status;
  return enabled == 1 ? 0 : 1;
}
