package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/validate/codes"
)

func init() {
	code := &cobra.Command{
		Use:   "code",
		Short: "Render and decode pack, ticket and validation codes (docs/codes.md)",
	}
	code.AddCommand(codeRenderCmd(), codeDecodeCmd())
	root.AddCommand(code)
}

func codeRenderCmd() *cobra.Command {
	var (
		out, secretHex, symbology string
		module                    int
	)
	cmd := &cobra.Command{
		Use:   "render (pack BLOCK PACK | ticket BLOCK PACK POSITION | validation BLOCK PACK POSITION) --out FILE.png",
		Short: "Render a code as a PNG and print its text",
		Long: `Render a code as a PNG (with its quiet zone) and print the code text on standard output;
a validation code also prints its grouped manual-entry form on a second line. Packs are
numbered from 0 in their block; positions (= games) from 1 to 8. A validation code gets a
random 80-bit secret unless --secret gives one (20 hex digits).`,
		Args: cobra.RangeArgs(3, 4),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return errors.New("code render: --out FILE.png is required")
			}
			c, err := codeFromArgs(args, secretHex)
			if err != nil {
				return fmt.Errorf("code render: %w", err)
			}
			format, _ := codemap.Format(c.Kind())
			if symbology != "" {
				f, ok := barcode.ParseFormat(symbology)
				if !ok {
					return fmt.Errorf("code render: unknown symbology %q", symbology)
				}
				format = f
			}
			img, err := barcode.Render(format, c.String(), barcode.RenderOptions{Module: module})
			if err != nil {
				return fmt.Errorf("code render: %w", err)
			}
			fh, err := os.Create(out)
			if err != nil {
				return fmt.Errorf("code render: %w", err)
			}
			if err := barcode.WritePNG(fh, img); err != nil {
				fh.Close()
				return fmt.Errorf("code render: %w", err)
			}
			if err := fh.Close(); err != nil {
				return fmt.Errorf("code render: %w", err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), c.String())
			if v, ok := c.(codes.ValidationCode); ok {
				fmt.Fprintln(cmd.OutOrStdout(), v.Manual())
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "PNG file to write (required)")
	cmd.Flags().StringVar(&secretHex, "secret", "", "validation code secret, 20 hex digits (default: random)")
	cmd.Flags().IntVar(&module, "module", 0, "module width in pixels (default 4 for bars, 8 for matrix codes)")
	cmd.Flags().StringVar(&symbology, "symbology", "", "override the symbology (code128, itf, qr, datamatrix)")
	return cmd
}

// codeFromArgs builds the code named by KIND and its numbers.
func codeFromArgs(args []string, secretHex string) (codes.Code, error) {
	want := map[string]int{"pack": 2, "ticket": 3, "validation": 3}[args[0]]
	if want == 0 {
		return nil, fmt.Errorf("unknown kind %q (pack, ticket or validation)", args[0])
	}
	if len(args)-1 != want {
		return nil, fmt.Errorf("%s takes %d numbers, got %d", args[0], want, len(args)-1)
	}
	nums := make([]uint64, len(args)-1)
	for i, a := range args[1:] {
		v, err := numberArg[uint64]([]number{blockNumber, packNumber, positionNumber}[i], a)
		if err != nil {
			return nil, err
		}
		nums[i] = v
	}
	if secretHex != "" && args[0] != "validation" {
		return nil, errors.New("--secret only applies to validation codes")
	}
	var c codes.Code
	switch args[0] {
	case "pack":
		p := codes.PackCode{Block: uint16(nums[0]), Pack: uint32(nums[1])}
		if err := p.Validate(); err != nil {
			return nil, err
		}
		c = p
	case "ticket":
		id := codes.TicketID{Block: uint16(nums[0]), Pack: uint32(nums[1]), Position: uint8(nums[2])}
		if err := id.Validate(); err != nil {
			return nil, err
		}
		c = codes.TicketCodeOf(id)
	default:
		id := codes.TicketID{Block: uint16(nums[0]), Pack: uint32(nums[1]), Position: uint8(nums[2])}
		if err := id.Validate(); err != nil {
			return nil, err
		}
		var secret [codes.SecretSize]byte
		if secretHex != "" {
			b, err := hex.DecodeString(secretHex)
			if err != nil || len(b) != codes.SecretSize {
				return nil, fmt.Errorf("--secret: want %d hex digits", 2*codes.SecretSize)
			}
			copy(secret[:], b)
		} else if _, err := rand.Read(secret[:]); err != nil {
			return nil, err
		}
		c = codes.ValidationCodeOf(id, secret)
	}
	return c, nil
}

func codeDecodeCmd() *cobra.Command {
	return withRawFlag(&cobra.Command{
		Use:   "decode FILE",
		Short: "Find a code in an image (PNG or JPEG) and print its kind and text",
		Long: `Find a pack, ticket or validation code anywhere in an image (a render or a camera
photo) and print "KIND TEXT" (a validation code adds its ticket identity). Exit status 1,
with the reason, when no code is found or the symbol holds none of our codes.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fr, err := scanner.LoadFrame(args[0])
			if err != nil {
				return fmt.Errorf("code decode: %w", err)
			}
			d := barcode.NewDecoder(codemap.DecoderOptions())
			res, err := d.Decode(fr.Image)
			if err != nil {
				return &exitError{code: 1, err: fmt.Errorf("code decode: %s: %w", args[0], err)}
			}
			kind, c, err := codemap.Parse(res.Text, res.Symbology)
			if err != nil {
				return &exitError{code: 1, err: fmt.Errorf("code decode: %s: %s symbol holds no terminal code: %w",
					args[0], res.Format, err)}
			}
			switch v := c.(type) {
			case codes.ValidationCode:
				fmt.Fprintf(cmd.OutOrStdout(), "%s %s ticket %s\n", kind, v.String(), v.ID())
			default:
				fmt.Fprintf(cmd.OutOrStdout(), "%s %s\n", kind, c.String())
			}
			return nil
		},
	})
}
