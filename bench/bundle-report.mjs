// The bundle report of a built folder, as `pack --report` makes it, without the validation that
// comes with it on the command line: open the folder as pack would zip it (the zip measured),
// share its files out among packages and sources through the maps, render the page, write it.
// Run as its own process, start-up included: node bench/bundle-report.mjs <dist/index.js> <folder> <project> <page>
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [library, folder, project, page] = process.argv.slice(2);
// The modules --report loads, not the whole library (which brings the dev server along).
const dist = new URL('.', pathToFileURL(library));
const [{ openBundle }, { reportBundle }, { renderReportPage }] = await Promise.all([
  import(new URL('core/bundle/open-bundle.js', dist).href),
  import(new URL('core/report/bundle-report.js', dist).href),
  import(new URL('report-page/render.js', dist).href),
]);
const source = await openBundle(folder);
try {
  const report = await reportBundle(source, { sourceMaps: { root: project } });
  if (report.packages.length === 0) throw new Error('no package found through the maps: the figure would not be the report of a framework build');
  writeFileSync(page, renderReportPage(report));
} finally {
  await source.close();
}
