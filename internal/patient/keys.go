package patient

// Keys gives each item of a record's list a key that stays with it across the record's
// versions, so what is shown of an item elsewhere (a FHIR resource's id) names the same item
// when another is added or taken away. before is the list as it was; an item of before kept
// without a key (written before keys were) has its place, i+1. An item of now keeps the key it
// carries when before has an item of that key not yet taken; else it takes the key of the first
// item of before that one of same says is it, the matchers tried in turn (the strictest first,
// so that a looser one never takes another's twin); else a new key, above every key given so
// far (seq: the highest ever given, so a key taken away is never given to another item).
// It returns the keys of now and the new highest.
func Keys[T any](before, now []T, key func(T) int, seq int, same ...func(was, is T) bool) ([]int, int) {
	was := make([]int, len(before))
	for i, b := range before {
		was[i] = key(b)
		if was[i] <= 0 {
			was[i] = i + 1
		}
		seq = max(seq, was[i])
	}
	seq = max(seq, len(before))
	taken := make([]bool, len(before))
	out := make([]int, len(now))
	take := func(i, j int) {
		taken[j], out[i] = true, was[j]
	}
	for i, n := range now {
		if k := key(n); k > 0 {
			for j := range before {
				if !taken[j] && was[j] == k {
					take(i, j)
					break
				}
			}
		}
	}
	for _, match := range same {
		for i, n := range now {
			if out[i] != 0 {
				continue
			}
			for j, b := range before {
				if !taken[j] && match(b, n) {
					take(i, j)
					break
				}
			}
		}
	}
	for i := range out {
		if out[i] == 0 {
			seq++
			out[i] = seq
		}
	}
	return out, seq
}
