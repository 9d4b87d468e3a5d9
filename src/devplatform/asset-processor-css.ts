// The stylesheet of the emulator's pages (its home, the Asset Processor screens: assignment, submit form, SpeedGrader view), served as a
// file because the tool's Content-Security-Policy allows only its own styles, never a style attribute. Each report's
// indication colour becomes a class: the colours are checked #RRGGBB by the report service, so any may be written.
import type { MountConcern, PlatformContext } from './context.js';

const CSS_PATH = '/asset-processor.css';

const BASE = `body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: auto; padding: 1rem; color: #1b1b1b; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #ddd; vertical-align: top; }
.swatch { display: inline-block; width: 1rem; height: 1rem; border-radius: 50%; border: 1px solid #555; vertical-align: middle; margin-right: .35rem; }
.asset { border: 1px solid #ccc; border-radius: .5rem; padding: .5rem 1rem; margin: 1rem 0; }
.button, button { display: inline-block; padding: .3rem .8rem; border: 1px solid #2d5be3; border-radius: .3rem; background: #2d5be3; color: #fff; text-decoration: none; font: inherit; cursor: pointer; }
.muted { color: #555; } .refused { color: #a40000; }
label { display: block; margin: .75rem 0 .25rem; } textarea { width: 100%; min-height: 8rem; }
`;

/** The class that paints a report's indication colour. */
export const swatchClass = (color: string) => `swatch-${color.slice(1).toLowerCase()}`;

export const mountAssetProcessorCss: MountConcern = (router, platform: PlatformContext) => {
  router.get(CSS_PATH, (_req, res) => {
    const colors = new Set(
      [...platform.memory.assetReports.values()]
        .map((stored) => stored.report.indicationColor)
        .filter((color): color is string => color !== undefined),
    );
    const swatches = [...colors]
      .map((color) => `.${swatchClass(color)} { background: ${color.toLowerCase()}; }`)
      .join('\n');
    res.type('text/css').setHeader('Cache-Control', 'no-store');
    res.send(`${BASE}${swatches}\n`);
  });
};
