#ifndef CSQLITEPLANS_H
#define CSQLITEPLANS_H

/// Turns on SQLite's query planner stability guarantee (SQLITE_DBCONFIG_ENABLE_QPSG) for the connection
/// `db` (a `sqlite3 *` of the SQLite that SQLiteNIO bundles): a statement's plan no longer depends on the
/// values bound to it, so a statement kept prepared is not prepared again whenever they change.
/// Returns 0 when the setting is on.
int completionkit_sqlite_keep_plans(void *db);

#endif
