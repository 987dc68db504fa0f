package pvec

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// check asserts v holds exactly want, read every way.
func check(t *testing.T, v Vec[int], want []int) {
	t.Helper()
	if v.Len() != len(want) {
		t.Fatalf("len %d, want %d", v.Len(), len(want))
	}
	for i, w := range want {
		if g := v.At(i); g != w {
			t.Fatalf("At(%d) = %d, want %d", i, g, w)
		}
	}
	if g := v.Slice(); !slices.Equal(g, want) && len(want) > 0 {
		t.Fatalf("Slice differs at len %d", len(want))
	}
	var back []int
	for i, it := range v.Backward() {
		if it != want[i] {
			t.Fatalf("Backward at %d = %d, want %d", i, it, want[i])
		}
		back = append(back, i)
	}
	if len(back) != len(want) {
		t.Fatalf("Backward yielded %d items, want %d", len(back), len(want))
	}
}

// TestModel applies random appends and sets to a vector and a slice model,
// keeping every version, and checks that all versions (old ones included)
// still hold what they held when made.
func TestModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type version struct {
		v    Vec[int]
		want []int
	}
	var vs []version
	cur, model := Vec[int]{}, []int(nil)
	for step := range 5000 {
		if len(model) > 0 && r.IntN(3) == 0 {
			i := r.IntN(len(model))
			cur = cur.Set(i, step)
			model = slices.Clone(model)
			model[i] = step
		} else {
			cur = cur.Append(step)
			model = append(slices.Clone(model), step)
		}
		if step%97 == 0 {
			vs = append(vs, version{cur, model})
		}
		if step%500 == 0 { // branch from an old version: its storage is shared
			old := vs[r.IntN(len(vs))]
			b := old.v.Append(-1)
			if len(old.want) > 0 {
				b = b.Set(0, -2)
			}
			_ = b
		}
	}
	for _, x := range vs {
		check(t, x.v, x.want)
	}
	check(t, cur, model)
	if !reflect.DeepEqual(Of(model...), cur) {
		t.Fatal("Of(items) is not DeepEqual to the vector built by appends and sets")
	}
}

// TestOf checks Of at the sizes where the layout changes.
func TestOf(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 64, 65, 1024, 1056, 1057, 2000, 33825} {
		s := make([]int, n)
		for i := range s {
			s[i] = i * 3
		}
		v := Of(s...)
		check(t, v, s)
		check(t, v.Append(7), append(slices.Clone(s), 7))
		if n > 0 {
			w := slices.Clone(s)
			w[n/2] = -1
			check(t, v.Set(n/2, -1), w)
			check(t, v, s)
		}
	}
}

// TestChanged compares Changed with a naive comparison after random edits.
func TestChanged(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	same := func(a, b *int) bool { return a == b }
	for _, n := range []int{0, 5, 32, 40, 1000, 1056, 3000} {
		items := make([]*int, n)
		for i := range items {
			items[i] = new(int)
		}
		old := Of(items...)
		v := old
		for range r.IntN(5) {
			if n > 0 {
				v = v.Set(r.IntN(n), new(int))
			}
		}
		for range r.IntN(70) {
			v = v.Append(new(int))
		}
		var want []int
		for i := range v.Len() {
			if i >= old.Len() || old.At(i) != v.At(i) {
				want = append(want, i)
			}
		}
		got := slices.Collect(v.Changed(old, same))
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: Changed = %v, want %v", n, got, want)
		}
		if got := slices.Collect(v.Changed(v, same)); len(got) != 0 {
			t.Fatalf("n=%d: a vector differs from itself at %v", n, got)
		}
	}
}

func TestOutOfRange(t *testing.T) {
	for _, f := range []func(){
		func() { Vec[int]{}.At(0) },
		func() { Of(1).At(1) },
		func() { Of(1).Set(-1, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic for an index out of range")
				}
			}()
			f()
		}()
	}
}
