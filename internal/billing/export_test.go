package billing

// ReplacedByQuery is the read of a bill's replacement, for its plan's test.
const ReplacedByQuery = replacedBy
