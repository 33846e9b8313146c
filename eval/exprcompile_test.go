package eval

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestCompileConfigsServeOneAtATime: programs compiled at the same time
// on the same environment each get their own answer and their own
// error, as expr.Compile gave them with a configuration each.
func TestCompileConfigsServeOneAtATime(t *testing.T) {
	env := reflect.TypeOf(struct {
		N int    `expr:"n"`
		S string `expr:"s"`
	}{})
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			for j := range 20 {
				text := fmt.Sprintf("n + %d == %d", i, i+j)
				prog, err := compileExpr(text, env, true)
				if err != nil {
					t.Errorf("%s: %v", text, err)
					return
				}
				if prog.Source().String() != text {
					t.Errorf("compiled %q for %q", prog.Source().String(), text)
				}
				if _, err := compileExpr(fmt.Sprintf("n + s%d", i), env, false); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("s%d", i)) {
					t.Errorf("an unknown name s%d: %v", i, err)
				}
				if _, err := compileExpr("s", env, true); err == nil {
					t.Error("a string where a bool is expected compiled")
				}
			}
		})
	}
	wg.Wait()
}
