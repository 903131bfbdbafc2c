package auth

// Change names what a successful write changes, for the live channel: each route declares it
// beside its Access, and the server announces it once the handler has answered without an
// error (docs/adr/0013). Listeners re-read what they show; no record data travels.
type Change int

// What a route's successful write changes.
const (
	ChangesNothing      Change = iota // reads, checks, and writes no open screen shows
	ChangesAppointments               // queues, calendars and charts re-read
	ChangesPatients                   // patient lists and charts re-read
	ChangesUser                       // the accounts list, and that account's own channel ({id})
	ChangesRoles                      // everyone re-reads their permissions
	ChangesOwnSessions                // a logout or new password: the user's other tabs and devices
	ChangesResults                    // orders, results, reviews and critical alerts re-read
	ChangesBills                      // bills, the queue's bill tags, drawers and fee reports re-read
	ChangesDocuments                  // a patient's documents, and the templates they are issued from, re-read
)
