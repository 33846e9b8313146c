package logs

import "testing"

func TestTraceID(t *testing.T) {
	for tp, want := range map[string]string{
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01":       "4bf92f3577b34da6a3ce929d0e0e4736",
		"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra": "4bf92f3577b34da6a3ce929d0e0e4736", // a later version may add fields
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra": "",
		"00-00000000000000000000000000000000-00f067aa0ba902b7-01":       "",
		"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01":       "",
		"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01":       "",
		"00-4bf92f3577b34da6a3ce929d0e0e4736\n0f067aa0ba902b7-01":       "",
		"": "",
	} {
		if got := traceID(tp); got != want {
			t.Errorf("traceID(%q) = %q, want %q", tp, got, want)
		}
	}
}
