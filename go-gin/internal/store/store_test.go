package store

import "testing"

func TestOffset(t *testing.T) {
	tests := []struct {
		page, size, want int64
		ok               bool
	}{
		{0, 20, 0, true},
		{7, 13, 91, true},
		{1 << 62, 2, 1 << 63 & 0, false},
		{9223372036854775807, 100, 0, false},
		{92233720368547758, 100, 9223372036854775800, true},
	}
	for _, tt := range tests {
		got, ok := offset(tt.page, tt.size)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("offset(%d, %d) = %d, %v; want %d, %v", tt.page, tt.size, got, ok, tt.want, tt.ok)
		}
	}
}
