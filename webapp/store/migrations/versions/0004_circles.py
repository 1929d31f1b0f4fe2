"""Circles: a family's table or a club, its people by name, its games and their summaries.

Revision ID: 0004
Revises: 0003

A game's rows here name it without a foreign key: a game deleted later leaves them behind,
and a circle reads only the games that still exist.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "circles",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("view_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_circles"),
        sa.UniqueConstraint("view_id", name="uq_circles_view_id"),
    )
    op.create_table(
        "circle_people",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("circle_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("key", sa.String(320), nullable=False),
        sa.ForeignKeyConstraint(
            ["circle_id"], ["circles.id"], name="fk_circle_people_circle_id_circles"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_circle_people"),
        sa.UniqueConstraint("circle_id", "key", name="uq_circle_people_circle_id"),
    )
    op.create_table(
        "circle_games",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("circle_id", sa.String(32), nullable=False),
        sa.Column("added_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["circle_id"], ["circles.id"], name="fk_circle_games_circle_id_circles"
        ),
        sa.PrimaryKeyConstraint("game_id", name="pk_circle_games"),
    )
    op.create_index("ix_circle_games_circle_id", "circle_games", ["circle_id"])
    op.create_table(
        "circle_seats",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["person_id"], ["circle_people.id"], name="fk_circle_seats_person_id_circle_people"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_circle_seats"),
    )
    op.create_index("ix_circle_seats_person_id", "circle_seats", ["person_id"])
    op.create_table(
        "game_summaries",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_summaries"),
    )


def downgrade() -> None:
    op.drop_table("game_summaries")
    op.drop_index("ix_circle_seats_person_id", table_name="circle_seats")
    op.drop_table("circle_seats")
    op.drop_index("ix_circle_games_circle_id", table_name="circle_games")
    op.drop_table("circle_games")
    op.drop_table("circle_people")
    op.drop_table("circles")
