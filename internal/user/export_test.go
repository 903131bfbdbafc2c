package user

// SetAfterReauth runs f between a token maker's re-authentication and the token's insert,
// with the token's account (nil: nothing), for the tests of a remedy committing there.
func SetAfterReauth(f func(userID int64)) {
	if f == nil {
		afterReauth.Store(nil)
		return
	}
	afterReauth.Store(&f)
}
