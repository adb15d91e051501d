package terminal_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/floors"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/validate/journal"
)

// flooredFleet is a fleet that claims as fleet.Fake and answers the install floors it
// found in what the terminal published, as the fleet client does once connected.
type flooredFleet struct {
	fleet.Fake
	mu sync.Mutex
	f  floors.Floors
}

func (f *flooredFleet) InstallFloors() floors.Floors {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.f.Clone()
}

func (f *flooredFleet) set(fl floors.Floors) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.f = fl
}

// Issue 47: the retailer puts the data directory back from a copy made before pack status
// list 2 was installed (list 2 names a pack stolen), journal and list 1 together: the
// journal says list 1 was the newest, so the start alone accepts it. The fleet holds the
// list 2 install the terminal published: online, its floor refuses list 1 — at start when
// the client already has it, or from the fleet's answer on (the next code scanned is
// refused, the rest screen says so at the next poll). Offline, with no answer kept, the
// terminal cannot know (docs/fleet.md, "Floors from the fleet"). Before, the stolen
// pack's winner was paid online too.
func TestFleetFloorHoldsARestoredCopy(t *testing.T) {
	code, _ := winner(t, 5_00)
	screen := func(r *terminaltest.Rig) string { return strings.Join(r.Terminal.Screen(), " ") }
	restored := func(f fleet.Claimer) *terminaltest.Rig {
		r := newRig(t, func(o *terminaltest.Options) {
			o.Status = statusList(t, 1)
			if f != nil {
				o.Fleet = f
			}
		})
		if _, err := r.Journal.Append(journal.Entry{Kind: journal.KindStatusInstall, Detail: "version 1 (maintenance link)"}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	published := floors.Floors{Status: 2, HadStatus: true}
	published.Add(journal.KindStatusInstall, "version 2, was 1 (fleet)")
	if published.Status != 2 {
		t.Fatalf("the fleet's floors: %+v", published)
	}
	t.Run("online at start", func(t *testing.T) {
		f := &flooredFleet{Fake: fleet.Fake{Terminal: "T-0001"}}
		f.set(published)
		r := restored(f)
		r.Run(t, nil)
		if got := r.Terminal.StateName(); got != "result:status-refused" || !strings.Contains(screen(r), "LISTE DES PAQUETS") {
			t.Fatalf("at start: %s %q", got, screen(r))
		}
		if got := pays(t, r, code); got != "result:status-refused" {
			t.Fatalf("the stolen pack's winner: %s %q", got, screen(r))
		}
		if n := len(records(t, r, journal.KindPayout)); n != 0 {
			t.Fatalf("%d payouts", n)
		}
	})
	t.Run("the fleet answers later", func(t *testing.T) {
		f := &flooredFleet{Fake: fleet.Fake{Terminal: "T-0001"}}
		r := restored(f)
		r.Run(t, nil)
		if got := r.Terminal.StateName(); got != "idle" {
			t.Fatalf("at start, before the fleet's answer: %s %q", got, screen(r))
		}
		f.set(published)
		deadline := time.Now().Add(5 * time.Second)
		for !strings.Contains(screen(r), "LISTE DES PAQUETS") {
			if time.Now().After(deadline) {
				t.Fatalf("at rest after the fleet's answer: %q", screen(r))
			}
			r.Clock.Advance(2 * time.Second) // the rest's poll
			time.Sleep(100 * time.Microsecond)
		}
		if got := pays(t, r, code); got != "result:status-refused" {
			t.Fatalf("the stolen pack's winner after the fleet's answer: %s %q", got, screen(r))
		}
		if n := len(records(t, r, journal.KindPayout)); n != 0 {
			t.Fatalf("%d payouts", n)
		}
	})
	t.Run("offline", func(t *testing.T) {
		r := restored(&flooredFleet{Fake: fleet.Fake{Terminal: "T-0001"}})
		r.Run(t, nil)
		if got := pays(t, r, code); got != "result:paid" {
			t.Fatalf("offline, list 1 is all the terminal knows: %s %q", got, screen(r))
		}
	})
}
