package patient

// DuplicatesQuery is the possible-duplicate check's SQL, for its plan's test.
const DuplicatesQuery = duplicatesQuery
