package serving

import (
	"context"
	"time"

	"github.com/mcpdecl/mcpdecl/limits"
	"github.com/mcpdecl/mcpdecl/observe/audit"
)

// openAudit opens the limit store Options.LimitStore names (a memory
// store is the server's own) and the audit trail of Options.Audit.
func (i *Instance) openAudit(ctx context.Context) error {
	if s := i.opts.LimitStore; s != "" && s != "memory" {
		openCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		store, err := limits.Open(openCtx, s)
		if err != nil {
			return err
		}
		i.limitStore = store
	}
	if i.opts.Audit != "" {
		l, err := audit.Open(i.opts.Audit)
		if err != nil {
			return err
		}
		i.audit = l
	}
	return nil
}

// closeAudit writes and syncs the trail's last records and closes the
// limit store, after the server's close: no call writes any more.
func (i *Instance) closeAudit() {
	if i.audit != nil {
		if err := i.audit.Close(); err != nil {
			i.log.Error("closing the audit trail", "error", err)
		}
	}
	if i.limitStore != nil {
		i.limitStore.Close()
	}
}
