/** What the document does not establish: the same for every plot, so stated once here. */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { heading } from '../layout.ts';

export const LIMITATIONS: readonly string[] = [
  'The evidence concerns land use before 31 December 2020 only. It says nothing of legality of production, land title, or the rights of people on the land, which due diligence must establish separately.',
  'The service files nothing. The due diligence statement is filed by the operator, from the operator\'s own account in the EU information system, and the operator remains responsible for it.',
  'The readings come from open satellite archives at 10 to 30 m (radar at 25 m). A plot under 4 ha receives no positive finding; small features, recent planting and mixed plots may not be resolved.',
  'The seasonal method finds crops that winter or otherwise dip once a year. An evergreen crop shows no cycle, and cloud can leave seasons without an answer; neither is evidence of forest.',
  'Each instrument compares its reading with decision lines held in a versioned operating-points file. The readings are shown; the lines are not published, so a reading alone does not show how near the line it fell.',
  'The calibration block says where the decision margins were measured. Where it reads "reads", no accuracy figure is quoted for this region.',
  'Risk, buildings and commodity-map context never change the verdict. Protected areas come from a crowd-sourced map that is not an official register: an area missing from it is not shown to be absent, and an intersection is not a finding of illegality.',
  'Maps and records named here carry their own errors, described in their citations. An absence of a reading is written as "not read", never as zero.',
];

export function limitationsSection(e: EvidenceObject): Content[] {
  const items = e.synthetic ? [...LIMITATIONS, `This evidence is synthetic. ${e.synthetic_note ?? 'It was read from the generated demo archive, not from observations.'}`] : LIMITATIONS;
  return [heading('Limitations'), { ul: items.map((text) => ({ text, style: 'body', margin: [0, 0, 0, 2] })) }];
}
