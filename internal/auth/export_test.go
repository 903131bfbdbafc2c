package auth

// SetAfterEpochCheck runs f in APITokens.Create's transaction once the credential epoch is
// checked, before the insert (nil: nothing), for the tests of a remedy starting there.
func SetAfterEpochCheck(f func(userID int64)) {
	if f == nil {
		afterEpochCheck.Store(nil)
		return
	}
	afterEpochCheck.Store(&f)
}
