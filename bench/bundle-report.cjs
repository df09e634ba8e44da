'use strict';
// The bundle report of a built folder, as `pack --report` makes it, without the validation that
// comes with it on the command line: open the folder as pack would zip it (the zip measured),
// share its files out among packages and sources through the maps, render the page, write it.
// Run as its own process, start-up included: node bench/bundle-report.cjs <dist/index.js> <folder> <project> <page>
//
// CommonJS, as the CLI's own entry (bin/pipeline-tool.js), and loading what the CLI loads for
// --report: its bundle dist/cli/report.cjs, through the loader that gives it its code cache. A
// build without that bundle (one from before it existed, measured with --cli) is read as the
// library's modules, as the report was then measured.
const { existsSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

async function main() {
  const [library, folder, project, page] = process.argv.slice(2);
  const dist = path.dirname(path.resolve(library));
  const bundle = path.join(dist, 'cli', 'report.cjs');
  let report;
  if (existsSync(bundle)) {
    const { writeReportPage } = require(path.join(dist, 'cli-loader.cjs')).loadBundle(bundle);
    report = await writeReportPage(folder, page, { sourceMaps: { root: project }, title: folder });
  } else {
    // The modules --report loads, not the whole library (which brings the dev server along).
    const from = (file) => import(pathToFileURL(path.join(dist, file)).href);
    const [{ openBundle }, { reportBundle }, { renderReportPage }] = await Promise.all([from('core/bundle/open-bundle.js'), from('core/report/bundle-report.js'), from('report-page/render.js')]);
    const { writeFileSync } = require('node:fs');
    const source = await openBundle(folder);
    try {
      report = await reportBundle(source, { sourceMaps: { root: project } });
      writeFileSync(page, renderReportPage(report));
    } finally {
      await source.close();
    }
  }
  if (report.packages.length === 0) throw new Error('no package found through the maps: the figure would not be the report of a framework build');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
