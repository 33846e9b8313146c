package sqladapter

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// TestMessagesHoldNoAddresses: a database message the model gets names no
// address, port or account host of the database or of mcpdecl.
func TestMessagesHoldNoAddresses(t *testing.T) {
	var msgs []string
	a := &Action{Owner: `tool "t"`, Backend: &Backend{Driver: "mysql"}}
	ctx := context.Background()
	for _, err := range []error{
		&mysql.MySQLError{Number: 1045, Message: "Access denied for user 'app'@'10.1.2.3' (using password: YES)"},
		&mysql.MySQLError{Number: 1142, Message: "SELECT command denied to user 'app'@'[fd00::7]' for table `shop`.`orders`"},
		&pgconn.PgError{Code: "XX000", Message: "could not connect to the primary server: connection to 192.168.7.9:5433 failed"},
	} {
		var ce *adapter.CallError
		if !errors.As(a.callError(ctx, ctx, err, nil, 0), &ce) {
			t.Fatalf("%v: no CallError", err)
		}
		msgs = append(msgs, ce.Message)
	}
	for _, m := range msgs {
		got := m
		for _, leak := range []string{"10.1.2.3", "fd00::7", "192.168.7.9", "5433"} {
			if strings.Contains(got, leak) {
				t.Errorf("%q keeps %s", got, leak)
			}
		}
		// The account stays named (the host part is dropped before or
		// here); an address in free text is replaced, not deleted.
		if !strings.Contains(got, "user 'app'") && !strings.Contains(got, "(an address)") {
			t.Errorf("%q: says neither the account nor where an address was", got)
		}
	}
	// Values and versions that only look like numbers stay.
	for _, keep := range []string{"A value does not fit: '3.14'.", "version 10.11.6", "The query took longer than 2s"} {
		if got := withoutAddresses(keep); got != keep {
			t.Errorf("withoutAddresses(%q) = %q", keep, got)
		}
	}
}
