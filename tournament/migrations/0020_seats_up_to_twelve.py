# The seat check follows the rules to twelve players (seed 001: nine "or more"; rules.parameters.MAX_PLAYERS).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0019_rankings'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='seat',
            name='seat_position_0_to_7',
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(('position__lt', 12)), name='seat_position_0_to_11'),
        ),
    ]
