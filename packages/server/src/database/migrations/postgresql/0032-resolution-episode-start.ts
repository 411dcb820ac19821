import { Migration } from '@mikro-orm/migrations';

/**
 * Each resolution keeps when its episode began (the finding's first sighting, or the regression before it), so time
 * to fix over a window reads its durations from the resolutions alone instead of looking each episode up. Existing
 * resolutions are given theirs from the transitions before them.
 */
export class ResolutionEpisodeStart extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "finding_transition" add column "episode_started_at" timestamptz null;');
    this.addSql(
      `update "finding_transition" set "episode_started_at" = coalesce((select max(case when r."to_state" = 'regressed' then r."at" end) from "finding_transition" r where r."finding_id" = "finding_transition"."finding_id" and r."at" < "finding_transition"."at"), (select f."first_seen" from "finding" f where f."id" = "finding_transition"."finding_id")) where "to_state" = 'resolved';`,
    );
  }
}
