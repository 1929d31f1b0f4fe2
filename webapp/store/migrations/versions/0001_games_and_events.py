"""Games and their append-only action log.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("view_id", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.UniqueConstraint("view_id", name="uq_games_view_id"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_events_game_id_games"),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.UniqueConstraint("game_id", "seq", name="uq_events_game_id_seq"),
    )
    op.create_index("ix_events_game_id", "events", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_events_game_id", table_name="events")
    op.drop_table("events")
    op.drop_table("games")
