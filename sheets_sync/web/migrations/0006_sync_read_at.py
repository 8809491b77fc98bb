# issue 42 §4: what a sync read is kept (not only in the fast lane), with when it read

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('web', '0005_throttle'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='sync_read_at',
            field=models.DateTimeField(blank=True, help_text='when the last finished sync read the sheet: a change Drive dates before it is on the site already', null=True),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='poll_fingerprint',
            field=models.CharField(blank=True, help_text="the typed tabs as the last read saw them (a sync's or a poll's)", max_length=64),
        ),
    ]
