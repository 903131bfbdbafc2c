package patient

import "emr/internal/database"

// DuplicatesQuery is the possible-duplicate check's SQL, for its plan's test.
const DuplicatesQuery = duplicatesQuery

// PageQuery is Page's SQL and arguments for f (no name words), for its plan's test.
func PageQuery(q database.Querier, f Filter) (string, []any) { return pageQuery(q, f, nil) }

// ByEmailQuery is ByContact's query of an e-mail address, for the plan test.
const ByEmailQuery = byEmail
