// Package browsertest starts headless Chromium for the tests that drive a page in a real
// browser (device/web, device/fleet/console), and takes their screenshots.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Start starts headless Chromium for one test (a phone's screen unless extra sets
// another) and returns its context, limited to 30 s past the start. Without Chromium
// the test skips, unless CI is set: CI installs it, and there a missing browser is a
// failure.
func Start(t testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed, and CI is set: install it (apt-get install chromium)")
		}
		t.Skip("chromium is not installed (apt-get install chromium); the browser tests skip outside CI")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true), chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(412, 915), // a phone's screen
	}
	opts = append(opts, extra...)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA() })
	// The first run starts the browser, which lives as long as its context: no timeout there.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	ctx, cancelT := context.WithTimeout(bctx, 30*time.Second)
	t.Cleanup(cancelT)
	return ctx
}

// Artifacts is where a test's screenshots go: $ARTIFACTS/sub, else a temporary
// directory.
func Artifacts(t testing.TB, sub string) string {
	t.Helper()
	dir := t.TempDir()
	if a := os.Getenv("ARTIFACTS"); a != "" {
		dir = filepath.Join(a, sub)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Screenshot writes the whole page as PNG to dir/name (an error fails the test, not
// at once).
func Screenshot(t testing.TB, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: PNG
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Error(err)
	}
	t.Logf("screenshot: %s", p)
}

// Poll waits until the JavaScript condition cond holds, at most limit.
func Poll(ctx context.Context, limit time.Duration, cond string) error {
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(limit)))
	return err
}
